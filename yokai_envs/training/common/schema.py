"""The training config: every key, its type, default and valid values (one place).

A config file only has to say what differs from these defaults. ``SCHEMA`` mirrors the YAML
tree: a dict is a section, a :class:`Field` is a leaf. Algorithm hyperparameters are checked
against the algorithm's own constructor (see ``config.py``), game options against the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.arena.match import MAX_GAMES  # the most games one arena match schedules
from agents.model_file import MAX_LAYER, MAX_LAYERS  # what a model card can hold

REQUIRED = object()  # a Field default meaning "the file must set this"

# algorithm name -> (module, class). MaskablePPO is the one wired up; the table leaves room.
ALGORITHMS: dict[str, tuple[str, str]] = {
    "MaskablePPO": ("sb3_contrib", "MaskablePPO"),
}
ACTIVATIONS = ("tanh", "relu", "elu", "leaky_relu")
VEC_ENVS = ("dummy", "subproc", "vector")
DEVICES = ("cpu", "cuda", "auto")
BACKENDS = ("sb3", "rllib")  # sb3: MaskablePPO here; rllib: RLlib PPO on Ray (training/rllib_backend)


@dataclass(frozen=True)
class Field:
    """A leaf of the config tree."""

    types: tuple[type, ...]
    default: Any = REQUIRED
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    nullable: bool = False
    maximum: float | None = None
    items: Any = None  # for lists: a Field (scalars) or a dict (a section per item)
    max_items: int | None = None  # for lists: the longest allowed
    help: str = ""

    def type_names(self) -> str:
        names = ["number"] if self.types == (float, int) else [t.__name__ for t in self.types]
        names += ["null"] if self.nullable else []
        return " or ".join(names)


INT, FLOAT, STR, BOOL, LIST, DICT = (int,), (float, int), (str,), (bool,), (list,), (dict,)


# A hidden layer's size; a network has at most MAX_LAYERS of them (its model card could not hold more).
LAYER = Field(INT, minimum=1, maximum=MAX_LAYER)

BOT_ENTRY = {
    "spec": Field(STR, help="agent spec: random, heuristic, ismcts:iterations=200, policy:PATH"),
    "weight": Field(FLOAT, 1.0, minimum=0, help="sampling weight in the opponent pool"),
}

SCHEMA: dict[str, Any] = {
    "backend": Field(STR, "sb3", choices=BACKENDS,
                     help="sb3 (MaskablePPO, this machine) or rllib (RLlib multi-agent PPO on Ray; the ray extra)"),
    "game": {
        "env_id": Field(STR, help="registered env id, e.g. yonkai_no_yokai_v1"),
        "options": Field(DICT, {}, help="game options (checked against the game's OPTIONS)"),
        "learner_seat": Field(INT, None, nullable=True, minimum=0,
                              help="the seat the learner plays; null rotates it every episode"),
    },
    "env": {
        "wrappers": Field(LIST, [], items=Field(STR),
                          help="gymnasium wrappers by import path (pkg.mod:Class), applied in order around the "
                               "training env; each must keep its observation and action spaces"),
        "skip_forced": Field(BOOL, False, help="the env plays the learner's forced decisions (one legal action) "
                                               "itself: they are not learner steps"),
    },
    "reward": Field(STR, None, nullable=True,
                    help="reward by import path (pkg.mod:function or a class): called (game, seat, reward, done) "
                         "after each learner step, returns the learner's reward; null: the change of its return"),
    "algorithm": {
        "name": Field(STR, "MaskablePPO", choices=tuple(ALGORITHMS)),
        "policy": Field(STR, "MlpPolicy", choices=("MlpPolicy",),
                        help="the SB3 policy class (the training env's observation is one flat vector)"),
        "hyperparameters": Field(DICT, {}, help="keyword arguments of the algorithm's constructor"),
        "network": {
            "net_arch": Field(LIST, [128, 128], items=LAYER, max_items=MAX_LAYERS,
                              help="hidden layer sizes of the policy and value nets (unless pi / vf say otherwise)"),
            "pi": Field(LIST, None, nullable=True, items=LAYER, max_items=MAX_LAYERS,
                        help="hidden layer sizes of the policy net alone; null: net_arch"),
            "vf": Field(LIST, None, nullable=True, items=LAYER, max_items=MAX_LAYERS,
                        help="hidden layer sizes of the value net alone; null: net_arch"),
            "activation": Field(STR, "tanh", choices=ACTIVATIONS),
            "critic_state": Field(BOOL, False, help="the critic also sees the full state (game.state_tensor); "
                                                    "the actor never does (MlpPolicy only)"),
        },
    },
    "training": {
        "total_timesteps": Field(INT, minimum=1, help="learner decisions over all envs"),
        "n_envs": Field(INT, 8, minimum=1, maximum=1024, help="parallel training envs (at most 1024)"),
        "vec_env": Field(STR, "dummy", choices=VEC_ENVS,
                         help="dummy: envs in this process; subproc: one process per env; vector: one batched "
                              "engine for all envs (yonkai_no_yokai_v1, random/heuristic bots; numba)"),
        "seed": Field(INT, 0, minimum=0, maximum=2**32 - 1, help="numpy's seeds stop at 2**32 - 1"),
        "device": Field(STR, "cpu", choices=DEVICES),
        "torch_threads": Field(INT, 1, minimum=1, maximum=1024,
                               help="torch CPU threads (1 is fastest for small nets)"),
        "init_from": Field(STR, None, nullable=True,
                           help="a policy file whose weights start the network (same game and network shape; "
                                "read as weights, never unpickled); null: a fresh network (or pretrain.imitate)"),
    },
    "opponents": {
        "bots": Field(LIST, [{"spec": "random", "weight": 1.0}], items=BOT_ENTRY,
                      help="bot specs with sampling weights (a bare spec string means weight 1)"),
        "self_play": {
            "enabled": Field(BOOL, False),
            "weight": Field(FLOAT, 1.0, minimum=0,
                            help="total sampling weight of the snapshots, shared equally among them"),
            "snapshot_every": Field(INT, 50_000, minimum=1, help="steps between snapshots"),
            "pool_size": Field(INT, 5, minimum=1, help="most recent snapshots kept in the pool"),
            "start_after": Field(INT, 0, minimum=0, help="steps before the first snapshot"),
        },
    },
    "pretrain": {
        "imitate": Field(STR, None, nullable=True,
                         help="bot spec the policy first copies (behaviour cloning, critic fitted to the "
                              "returns) before PPO; null: start from scratch"),
        "steps": Field(INT, 100_000, minimum=1, help="learner decisions collected from the teacher"),
        "epochs": Field(INT, 10, minimum=1),
        "batch_size": Field(INT, 1024, minimum=1),
        "learning_rate": Field(FLOAT, 1e-3, minimum=1e-12),
    },
    "distill": {
        "teacher": Field(STR, None, nullable=True,
                         help="search distillation (expert iteration) after the pretrain: the search options of "
                              "the agent trained:NETWORK;OPTIONS that plays and labels each round, guided by the "
                              "current network (e.g. 'iterations=50;search=flat;beliefs=heuristic'; '' for "
                              "the defaults); null: off"),
        "rounds": Field(INT, 1, minimum=1, maximum=10_000, help="generate-then-fit rounds"),
        "decisions": Field(INT, 10_000, minimum=1, maximum=10_000_000,
                           help="learner decisions the search makes in each round"),
        "window": Field(INT, 2, minimum=1, help="the newest rounds of data each fit uses"),
        "epochs": Field(INT, 4, minimum=1, maximum=1_000),
        "batch_size": Field(INT, 512, minimum=1),
        "learning_rate": Field(FLOAT, 3e-4, minimum=1e-12),
        "workers": Field(INT, None, nullable=True, minimum=1, maximum=1024,
                         help="processes generating decisions; null: every core"),
    },
    "dmc": {
        "steps": Field(INT, None, nullable=True, minimum=1,
                       help="deep Monte-Carlo after the pretrain (DouZero): learner decisions of Q(s, a) "
                            "regressed onto the returns, played greedily with epsilon exploration "
                            "(training/algorithms/dmc.py); null: off"),
        "epsilon": Field(FLOAT, 0.01, minimum=0.0, maximum=1.0, help="chance of a uniform legal move"),
        "fit_every": Field(INT, 16_384, minimum=1, help="finished decisions collected before each pass"),
        "batch_size": Field(INT, 2048, minimum=1),
        "learning_rate": Field(FLOAT, 1e-4, minimum=1e-12),
        "max_grad_norm": Field(FLOAT, 40.0, minimum=1e-12),
        "logit_scale": Field(FLOAT, 100.0, minimum=1e-6,
                             help="the actor's logits are this times the advantage A = Q - V (its softmax: a Boltzmann "
                                  "policy over Q)"),
    },
    "lookahead": {
        "labels": Field(INT, None, nullable=True, minimum=0,
                        help="search distillation with a privileged teacher (Yonkai, vectorized engine): decisions "
                             "of heuristic games labelled with each legal move's one-move lookahead value on the "
                             "true deal, scored at the round's end, and regressed "
                             "(training/algorithms/yonkai_lookahead.py); 0: fit only fit_with's; null: off"),
        "fit_with": Field(LIST, [], items=Field(STR),
                          help="run folders of earlier lookahead runs whose saved labels (lookahead/round_*.npz) "
                               "every fit uses beside this run's own; they count toward training.total_timesteps"),
        "rounds": Field(INT, 4, minimum=1, maximum=1_000,
                        help="label-then-fit rounds (each fit uses every round so far; evaluation after each)"),
        "sample": Field(FLOAT, 0.5, minimum=1e-6, maximum=1.0,
                        help="chance that a decision with a choice is labelled"),
        "table_games": Field(INT, 2000, minimum=1,
                             help="heuristic games per start of the round-end value table"),
        "epochs": Field(INT, 4, minimum=1, maximum=1_000, help="passes over all rounds' labels at each fit"),
        "batch_size": Field(INT, 1024, minimum=1),
        "learning_rate": Field(FLOAT, 1e-3, minimum=1e-12, help="Adam's, cosine-annealed to 0 over each fit"),
        "logit_scale": Field(FLOAT, 100.0, minimum=1e-6,
                             help="the actor's logits are this times each move's value minus the legal moves' mean"),
        "workers": Field(INT, None, nullable=True, minimum=1, maximum=1024,
                         help="processes labelling decisions; null: every core"),
        "play": Field(STR, "heuristic", choices=("heuristic", "start"),
                      help="who plays the labelled seats of the labelled games and of each move's lookahead "
                           "(every seat when opponents is empty): the heuristic, or start: the network the run "
                           "starts from (training.init_from), frozen, its most likely move (one step of policy "
                           "iteration on it)"),
        "horizon": Field(STR, "round", choices=("round", "next_turn"),
                         help="where each move's play on stops: round: the round's end, scored by the "
                              "heuristic game's table; next_turn: the seat's next decision, valued by the "
                              "network the run starts from (training.init_from: its critic plus its best "
                              "move's advantage), so the label hangs on less of the one world drawn"),
        "accumulate": Field(FLOAT, 0.0, minimum=0.0, maximum=100.0,
                            help="weight of the start network's own move values (training.init_from: its logits "
                                 "/ logit_scale) added to every label before the fit: 1 sums the steps of policy "
                                 "iteration instead of replacing the last; 0: off"),
        "opponents": Field(LIST, [], items=BOT_ENTRY,
                           help="league members with weights: each labelling table seats one learner (played as "
                                "play says, alone labelled) against copies of one member drawn by weight; "
                                "specs: start, heuristic, pretrained, pretrained:generation=N or a policy file; "
                                "empty: play at every seat, every seat labelled"),
    },
    "league": {
        "generations": Field(INT, None, nullable=True, minimum=1, maximum=1_000,
                             help="league training (training/algorithms/league.py): a main agent, exploiters "
                                  "trained against it, its past generations and the bots below, matched by "
                                  "prioritized fictitious self-play; this many generations; null: off"),
        "start_from": Field(STR, None, nullable=True,
                            help="policy file of the first main agent (e.g. a shipped model); null: generation 0 "
                                 "is this config's own run (pretrain, then training.total_timesteps)"),
        "main_steps": Field(INT, 200_000, minimum=1, help="the main agent's PPO steps in each generation"),
        "exploiter_steps": Field(INT, 150_000, minimum=1,
                                 help="steps of each generation's main exploiter (a best response to the frozen "
                                      "main agent of the generation before)"),
        "exploiter_start": Field(STR, "main", choices=("main", "scratch", "heuristic"),
                                 help="main: the exploiter starts as a copy of the agent it exploits (finds holes "
                                      "fast); scratch: a fresh network; heuristic: a copy of the heuristic (the "
                                      "pretrain section, of exploiter_config when given), as yokai exploit "
                                      "--warm-start heuristic starts"),
        "exploiters": Field(INT, 1, minimum=1, maximum=16,
                            help="main exploiters per generation, each from its own seed (a best response "
                                 "finds different holes from different seeds)"),
        "exploiter_config": Field(STR, None, nullable=True,
                                  help="a config file whose algorithm section (hyperparameters, network) the "
                                       "exploiters train with, e.g. the yardstick's quick config; null: this one"),
        "schedule": Field(STR, "parallel", choices=("parallel", "exploiters_first"),
                          help="parallel: the main agent trains beside the generation's exploiters (it meets "
                               "the earlier generations' ones); exploiters_first: the exploiters train first "
                               "and the main agent meets them in the same generation"),
        "final": Field(STR, "last", choices=("last", "mixture"),
                       help="what the league ships: last: the last main agent; mixture: a mixture of the "
                            "last mixture_of main agents, weighted by the minimax strategy of their cross table "
                            "against the exploiters and bots (PSRO's meta-strategy), one member drawn per game"),
        "mixture_of": Field(INT, 4, minimum=2, maximum=64, help="with final: mixture, this many last main agents"),
        "mixture_against": Field(LIST, [], items=Field(STR), max_items=64,
                                 help="with final: mixture, more rows of the cross table beside the league's "
                                      "exploiters and bots (agent specs, e.g. best responses yokai exploit "
                                      "trained against an earlier mixture: PSRO's next step)"),
        "bots": Field(LIST, ["heuristic"], items=Field(STR), help="fixed league members (agent specs)"),
        "past_generations": Field(INT, 4, minimum=0, maximum=100, help="past main agents kept as members"),
        "exploiters_kept": Field(INT, 4, minimum=0, maximum=100, help="past exploiters kept as members"),
        "prioritization": Field(FLOAT, 2.0, minimum=0.0, maximum=10.0,
                                help="PFSP: a member's sampling weight is (1 - the main agent's win rate against "
                                     "it) ** this (0: uniform)"),
        "min_weight": Field(FLOAT, 0.05, minimum=0.0, maximum=1.0,
                            help="no member's weight falls below this (a beaten member is still visited)"),
        "match_games": Field(INT, 200, minimum=2, maximum=100_000,
                             help="arena games of the main agent against each member after each generation "
                                  "(the win rates PFSP weighs by)"),
        "sampled": Field(BOOL, True, help="members and the main agent play by sampling their distribution "
                                          "(false: their most likely move)"),
        "workers": Field(INT, 2, minimum=1, maximum=64,
                         help="processes: the main agent and the exploiter of a generation train side by side"),
        "backend": Field(STR, "local", choices=("local", "ray"),
                         help="local: this machine's processes; ray: Ray tasks (rllib.address joins a cluster)"),
    },
    "evaluation": {
        "every": Field(INT, 50_000, minimum=0, help="steps between evaluations (0: only at the end)"),
        "games": Field(INT, 200, minimum=1, maximum=MAX_GAMES, help="games per bot at each evaluation"),
        "final_games": Field(INT, 1000, minimum=1, maximum=MAX_GAMES, help="games per bot in the final arena table"),
        "bots": Field(LIST, ["random"], items=Field(STR), help="bot specs to evaluate against"),
        "seats": Field((str, list), "all", items=Field(INT, minimum=0),
                       help="'all' (rotate the learner over every seat) or a list of seats"),
        "deterministic": Field(BOOL, True, help="play the most likely action when evaluating"),
        "workers": Field(INT, 1, minimum=1, help="arena processes for the final table (results do not depend on it)"),
        "engine": Field(STR, "arena", choices=("arena", "vector"),
                        help="'arena': seat-balanced duplicate deals, one game at a time; 'vector': the network "
                             "plays batched on the vectorized engine against batched bots (fresh deals; Yonkai)"),
        "best_by": Field(STR, None, nullable=True,
                         help="bot whose win rate picks best_model.safetensors (default: the first bot)"),
        "search": Field(STR, None, nullable=True,
                        help="also evaluate the final network with play-time search: the options of "
                             "'trained:model.safetensors;OPTIONS' (e.g. 'iterations=100'; '' for the defaults); "
                             "null: off"),
        "search_games": Field(INT, 200, minimum=1, maximum=MAX_GAMES, help="games per bot for the network with search"),
    },
    "rllib": {
        "address": Field(STR, None, nullable=True,
                         help="Ray cluster to join (e.g. auto or ray://head:10001); null starts a local one"),
        "num_cpus": Field(INT, 2, minimum=1, maximum=1024,
                          help="CPUs of the local Ray instance (ignored on a cluster)"),
        "num_env_runners": Field(INT, 1, minimum=0, maximum=1024,
                                 help="RLlib env-runner workers (0: sample in the driver)"),
        "num_envs_per_env_runner": Field(INT, None, nullable=True, minimum=1, maximum=1024,
                                         help="envs per runner; null: training.n_envs split over the runners"),
    },
    "output": {
        "dir": Field(STR, None, nullable=True, help="run folder (default runs/<game>/<config name>)"),
        "checkpoint_every": Field(INT, 50_000, minimum=1, help="steps between latest-checkpoint saves"),
        "keep_policies_at": Field(LIST, [], items=Field(INT, minimum=1), max_items=64,
                                  help="PPO steps at which to keep the policy (kept/step_N.safetensors): "
                                       "the model a run of that many steps would end with"),
        "tensorboard": Field(BOOL, True),
        "csv": Field(BOOL, True),
        "progress_bar": Field(BOOL, True),
    },
}


def defaults(schema: dict[str, Any] = SCHEMA) -> dict[str, Any]:
    """The default config tree (REQUIRED leaves are left out)."""
    out: dict[str, Any] = {}
    for key, node in schema.items():
        if isinstance(node, dict):
            out[key] = defaults(node)
        elif node.default is not REQUIRED:
            out[key] = _copy(node.default)
    return out


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
