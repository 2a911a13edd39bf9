"""One SB3 training run from a resolved config: envs, model, callbacks, final evaluation.

The run folder and the evaluation every trainer shares are in :mod:`yokai_envs.training.common.run`.
"""

from __future__ import annotations

import functools
import json
import os
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback

from yokai_envs.core.errors import ConfigError
from yokai_envs.training.common.config import algorithm_class
from yokai_envs.training.common.evaluate import evaluate_checkpoint, evaluate_vector
from yokai_envs.training.common.run import RunBase, RunFolder, _slug
from yokai_envs.training.common.safety import (
    RunInterrupted,
    atomic_copy,
    atomic_copy_model,
    atomic_write_text,
)
from yokai_envs.training.common.training_state import load_training_state, save_training_state, saved_step

ACTIVATION_CLASSES = {"tanh": "Tanh", "relu": "ReLU", "elu": "ELU", "leaky_relu": "LeakyReLU"}


# ---------------------------------------------------------------------- building
def make_training_env(env_id: str, single_thread_torch: bool, reward_hook: str | None = None,
                      wrappers: tuple[str, ...] = (), **kwargs: Any) -> Any:
    """One training env, with the config's reward hook and wrappers (training/common/hooks.py); in a
    worker process that will run policy opponents (self-play snapshots), torch gets one thread so
    the workers do not fight over the cores. ``kwargs`` are make_gym's and the game's options (a
    game option may be called ``reward`` too: Yonkai's, hence ``reward_hook``)."""
    if single_thread_torch:
        import torch

        torch.set_num_threads(1)
    from yokai_envs.training.gym_env import make_gym

    env: Any = make_gym(env_id, **kwargs)
    if reward_hook or wrappers:
        from yokai_envs.training.common.hooks import apply_hooks

        env = apply_hooks(env, reward_hook, wrappers)
    return env


def env_factories(config: dict[str, Any], pool: tuple[list[str], list[float]]) -> list[Any]:
    """Picklable constructors of the training envs (for DummyVecEnv and SubprocVecEnv)."""
    game = config["game"]
    specs, weights = pool
    policy_opponents = config["opponents"]["self_play"]["enabled"] or any(
        s.split(":")[0] in ("policy", "trained", "pretrained") for s in specs)
    env = config.get("env", {})
    hooks: dict[str, Any] = {}
    if config.get("reward") or env.get("wrappers"):
        hooks = {"reward_hook": config.get("reward"), "wrappers": tuple(env.get("wrappers", ()))}
    if env.get("skip_forced"):
        hooks["skip_forced"] = True
    return [functools.partial(make_training_env, game["env_id"], policy_opponents, opponents=specs or None,
                              opponent_weights=weights or None, learner_seat=game["learner_seat"],
                              critic_state=config["algorithm"]["network"]["critic_state"], **hooks,
                              **game["options"])
            for _ in range(config["training"]["n_envs"])]


def build_vec_env(config: dict[str, Any], pool: tuple[list[str], list[float]]) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    if config["training"]["vec_env"] == "vector":  # one batched engine (training/vec_env.py)
        from yokai_envs.training.vec_env import make_vec_gym

        specs, weights = pool
        game = config["game"]
        # its infos carry the episode statistics VecMonitor would add
        return make_vec_gym(game["env_id"], config["training"]["n_envs"], opponents=specs,
                            opponent_weights=weights, learner_seat=game["learner_seat"], api="sb3",
                            critic_state=config["algorithm"]["network"]["critic_state"],
                            seed=config["training"]["seed"], **game["options"])
    factories = env_factories(config, pool)
    vec = SubprocVecEnv(factories) if config["training"]["vec_env"] == "subproc" else DummyVecEnv(factories)
    return VecMonitor(vec)


def build_model(config: dict[str, Any], vec_env: Any) -> Any:
    import torch

    algorithm = config["algorithm"]
    network = algorithm["network"]
    net_arch: Any = list(network["net_arch"])
    if network.get("pi") is not None or network.get("vf") is not None:  # separate policy and value nets
        net_arch = {"pi": list(network["pi"] if network.get("pi") is not None else net_arch),
                    "vf": list(network["vf"] if network.get("vf") is not None else net_arch)}
    policy_kwargs = {"net_arch": net_arch,
                     "activation_fn": getattr(torch.nn, ACTIVATION_CLASSES[network["activation"]])}
    policy: Any = algorithm["policy"]
    if network["critic_state"]:
        from yokai_envs.training.common.policies import StateCriticPolicy

        policy = StateCriticPolicy
        policy_kwargs["actor_obs_size"] = vec_env.get_attr("actor_obs_size", [0])[0]
    cls = algorithm_class(algorithm["name"])
    return cls(policy, vec_env, policy_kwargs=policy_kwargs, seed=config["training"]["seed"],
               device=config["training"]["device"], verbose=0, **algorithm["hyperparameters"])


def load_weights(model: Any, path: str | Path) -> None:
    """Start ``model``'s network from the weights of the policy file ``path`` (read as tensors only:
    nothing in the file runs); ConfigError naming the file when it does not fit."""
    from agents.policy import policy_weights

    try:
        weights = _widened_to_state(model.policy, policy_weights(path))
        missing, unexpected = model.policy.load_state_dict(weights, strict=False)
    except (RuntimeError, ValueError, OSError) as err:
        raise ConfigError(f"training.init_from: {path} does not fit this network ({err})") from None
    if missing:  # an actor-only export leaves the critic fresh; anything else must match
        actor_only = all(name.startswith(("mlp_extractor.value_net", "value_net")) for name in missing)
        if not actor_only:
            raise ConfigError(f"training.init_from: {path} lacks {', '.join(missing[:4])}; another network shape?")
    if unexpected:
        raise ConfigError(f"training.init_from: {path} has weights this network lacks: {', '.join(unexpected[:4])}")


def _widened_to_state(policy: Any, weights: dict[str, Any]) -> dict[str, Any]:
    """A policy file exported from a centralized-critic run holds the first layers' observation
    columns only (``export_actor``); a centralized-critic network continuing from it gets zero
    columns for the state. The actor zeroes those inputs anyway, so it acts exactly as the file;
    the critic starts from its observation part and learns the state's."""
    size = getattr(policy, "actor_obs_size", None)
    if size is None:
        return weights
    own = policy.state_dict()
    widened = dict(weights)
    for key, value in weights.items():
        target = own.get(key)
        if (target is not None and value.dim() == 2 and target.dim() == 2 and value.shape[1] == size
                and target.shape[0] == value.shape[0] and target.shape[1] > size):
            wide = target.new_zeros(target.shape)
            wide[:, :size] = value
            widened[key] = wide
    for name, buffer in policy.named_buffers():  # the actor view's mask is the network's own, not learned
        widened.setdefault(name, buffer)
    return widened


def model_pair(source: Path, target: Path) -> list[tuple[Path, Path]]:
    """A model's two files (weights, then the card) under ``source`` and ``target``."""
    return [(source, target), (source.with_suffix(".json"), target.with_suffix(".json"))]


def crossed_multiple(before: int, now: int, every: int) -> bool:
    """True when a step counter going from ``before`` to ``now`` passed a multiple of ``every``
    (never for ``every`` 0): when an evaluation or a checkpoint is due."""
    return every > 0 and now // every > before // every


def opponent_pool(config: dict[str, Any], snapshots: list[str]) -> tuple[list[str], list[float]]:
    """(specs, weights): the configured bots, plus the self-play snapshots sharing their weight."""
    bots = config["opponents"]["bots"]
    specs = [b["spec"] for b in bots]
    weights = [b["weight"] for b in bots]
    self_play = config["opponents"]["self_play"]
    if self_play["enabled"] and snapshots:
        kept = snapshots[-self_play["pool_size"]:]
        specs += [f"policy:{p};deterministic=false" for p in kept]
        weights += [self_play["weight"] / len(kept)] * len(kept)
    return specs, weights


class Trainer(RunBase):
    """Runs (or resumes) the training described by ``config`` in its output folder.

    ``clone_cache``: a folder where the behaviour clone of ``pretrain.imitate`` is looked up before
    cloning and saved after (training/common/clone_cache.py): runs that differ only in their
    budget (a ``yokai exploit`` curve) clone once."""

    def __init__(self, config: dict[str, Any], resume: bool = False, progress: bool | None = None,
                 overwrite: bool = False, trust_pickles: bool = False, clone_cache: Path | None = None) -> None:
        super().__init__(config, RunFolder(config["output"]["dir"]), resume, progress, overwrite, trust_pickles)
        self.clone_cache = clone_cache

    # ------------------------------------------------------------------ main
    def run(self) -> dict[str, Any]:
        import torch

        # The arena's policy agent hands torch read-only legal-action masks; harmless, and noisy.
        warnings.filterwarnings("ignore", message="The given NumPy array is not writable")

        config, folder, state = self.config, self.folder, self.state
        training = config["training"]
        torch.set_num_threads(training["torch_threads"])
        self.prepare_folder()
        state["sessions"] += 1

        vec_env = build_vec_env(config, opponent_pool(config, state["snapshots"]))
        try:
            if self.resume and self.legacy_resume:
                try:  # the user said --trust-pickles: this unpickles the old run's zip
                    model = algorithm_class(config["algorithm"]["name"]).load(
                        str(self.resume_file), env=vec_env, device=training["device"])
                except Exception as err:  # zip, pickle, torch, space checks: one message naming the file
                    raise ConfigError(f"--resume: cannot load {self.resume_file} ({type(err).__name__}: {err}); "
                                      "start afresh with --overwrite") from None
                log_dir = folder.logs / f"resume_{state['sessions'] - 1}"
            elif self.resume:
                model = build_model(config, vec_env)
                load_training_state(model, self.resume_file)
                log_dir = folder.logs / f"resume_{state['sessions'] - 1}"
            else:
                model = build_model(config, vec_env)
                log_dir = folder.logs
                if training["init_from"]:
                    load_weights(model, training["init_from"])
                if config["pretrain"]["imitate"]:
                    state["pretrain"] = self.pretrain(model)
            self._set_logger(model, log_dir)
            self.model = model
            if config["distill"]["teacher"] is not None:
                self.distill(model)
            if config["dmc"]["steps"] is not None:
                self.dmc(model, vec_env)
            if config["lookahead"]["labels"] is not None:
                self.lookahead(model)
            remaining = training["total_timesteps"] - model.num_timesteps
            callback = TrainingCallback(self, vec_env)
            started = time.perf_counter()
            stop: KeyboardInterrupt | None = None
            try:
                if remaining > 0:
                    model.learn(remaining, callback=callback, reset_num_timesteps=not self.resume and
                                model.num_timesteps == 0)
            except KeyboardInterrupt as err:
                stop = err
                self.guard.stopping = True  # a second signal waits for the save below
            callback.close()
            state["train_seconds"] += time.perf_counter() - started
            self.save_checkpoint(model)
            if stop is not None:  # keep what was learned; --resume continues from here
                raise RunInterrupted(self.interrupted_message(f"at step {model.num_timesteps}"),
                                     getattr(stop, "signal_number", 2))
            with self.guard.saving():
                self.save_policy(model, folder.model)
        finally:
            vec_env.close()
        final = self.final_evaluation()
        self.finish()
        return final

    def pretrain(self, model: Any) -> dict[str, Any]:
        """Behaviour cloning of ``pretrain.imitate`` into ``model`` (see training/algorithms/imitation.py)."""
        from agents.specs import make
        from yokai_envs.training.algorithms.imitation import pretrain
        from yokai_envs.training.common.clone_cache import apply_clone, clone_key, find_clone, save_clone

        settings = self.config["pretrain"]
        seed = self.config["training"]["seed"]
        cache = self.clone_cache
        key = clone_key(self.config) if cache is not None else ""
        # A reused clone leaves the process as cloning would, so the training after it is the same:
        # building this env may set torch to one thread (policy opponents: make_training_env), and
        # its first game builds the opponents (a policy opponent is shared with the training envs,
        # which then do not build it: gym_env's _SHARED_POLICY_AGENTS); the generators come with it.
        env = env_factories(self.config, opponent_pool(self.config, []))[0]()
        try:
            saved = find_clone(model, cache, key) if cache is not None else None
            if saved is None:
                teacher = make(settings["imitate"], self.env_id, self.options, seed=seed)
                result = pretrain(model, env, teacher, settings, seed)
            else:
                env.reset(seed=seed)
        finally:
            env.close()
        if saved is not None:
            reused = apply_clone(saved, model)
            if self.progress:
                print(f"pretrain: reused the copy of {settings['imitate']} in {reused['reused_from']} (the same "
                      "clone: same game, network, pretrain and seed)")
            return reused
        if cache is not None:
            with self.guard.saving():
                save_clone(model, cache, key, result, self.env_id, self.options)
        if self.progress:
            print(f"pretrain: copied {settings['imitate']} over {result['decisions']} decisions "
                  f"(agreement {result['agreement']:.1%}) in {result['collect_seconds'] + result['fit_seconds']:.0f} s")
        return result

    def distill(self, model: Any) -> None:
        """The search-distillation rounds the run still owes (see training/algorithms/distill.py); a stop
        between rounds keeps every finished one."""
        from yokai_envs.training.algorithms.distill import run_rounds

        self._by_rounds(model, "distill", "distillation", lambda: run_rounds(self, model))

    def dmc(self, model: Any, vec_env: Any) -> None:
        """The deep Monte-Carlo decisions the run still owes (see training/algorithms/dmc.py); a stop keeps
        the last checkpoint (one at each evaluation and every output.checkpoint_every decisions)."""
        from yokai_envs.training.algorithms.dmc import run_dmc

        self._interruptible(lambda: run_dmc(self, model, vec_env), lambda: (
            f"in deep Monte-Carlo after {self.state.get('dmc', {}).get('steps', 0)} decisions (resumes "
            "from the last checkpoint)"))

    def lookahead(self, model: Any) -> None:
        """The lookahead-distillation rounds the run still owes (see training/algorithms/yonkai_lookahead.py); a stop
        between rounds keeps every finished one."""
        from yokai_envs.training.algorithms.yonkai_lookahead import run_lookahead

        self._by_rounds(model, "lookahead", "lookahead", lambda: run_lookahead(self, model))

    def _by_rounds(self, model: Any, section: str, name: str, work: Callable[[], None]) -> None:
        """``work()``, a loop of rounds that counts its finished ones in ``state[section]["rounds"]``:
        a checkpoint before the first (a stop in it resumes from there), and a stop says which round."""
        if self.state.get(section, {}).get("rounds", 0) == 0:
            self.save_checkpoint(model)

        def where() -> str:
            done = self.state.get(section, {}).get("rounds", 0)
            return f"in {name} round {done + 1} (the {done} finished rounds are saved)"

        self._interruptible(work, where)

    def _interruptible(self, work: Callable[[], None], where: Callable[[], str]) -> None:
        """``work()``; Ctrl-C or a stop signal inside it becomes RunInterrupted saying ``where()``."""
        try:
            work()
        except KeyboardInterrupt as stop:
            raise RunInterrupted(self.interrupted_message(where()), getattr(stop, "signal_number", 2)) from None

    def _set_logger(self, model: Any, log_dir: Path) -> None:
        from stable_baselines3.common.logger import configure

        formats = [f for f, on in (("csv", self.config["output"]["csv"]),
                                   ("tensorboard", self.config["output"]["tensorboard"])) if on]
        model.set_logger(configure(str(log_dir), formats))

    # ------------------------------------------------------------------ pieces
    def save_policy(self, model: Any, path: Path, slim: bool = False) -> None:
        """A model file ``agents.make("policy:PATH")`` loads (the observation-only actor: a
        centralized critic's policy is exported first; ``slim`` is kept for the callers that
        named it, a model file never holds rollout settings)."""
        from agents.policy import save_checkpoint

        if type(model.policy).__name__ != "MaskableActorCriticPolicy":
            from yokai_envs.training.common.policies import export_actor

            model = export_actor(model)
        save_checkpoint(model, path, self.env_id, self.options)

    def save_training_state(self, model: Any) -> None:
        """Everything --resume needs (the full policy with its optimizer and critic), as data."""
        save_training_state(model, self.folder.resume, self.env_id, self.options)

    def save_checkpoint(self, model: Any) -> None:
        """latest, resume, then the state they belong to (signals wait for all of it). The
        committed resume is kept as resume.previous until the new state is written, so a kill
        between the two leaves a pair that agrees (--resume picks it by its step)."""
        folder = self.folder
        with self.guard.saving():
            self.state["timesteps"] = int(model.num_timesteps)
            self.save_policy(model, folder.latest)
            self.remove_policy(folder.resume_previous)
            if folder.resume.exists():
                for source, target in model_pair(folder.resume, folder.resume_previous):
                    try:
                        os.link(source, target)
                    except OSError:  # no hard links here: a copy
                        atomic_copy(source, target)
            self.save_training_state(model)
            self.commit_checkpoint()
            self.remove_policy(folder.resume_previous)

    def checkpoint_step(self, path: Path) -> int | None:
        """The step a training-state file holds; ConfigError naming a damaged file."""
        return saved_step(path)

    def evaluate(self, model: Any, games: int) -> dict[str, dict[str, Any]]:
        """Evaluate the current policy (saved as latest) against every evaluation bot."""
        with self.guard.saving():
            self.save_policy(model, self.folder.latest)
        # Bots measured alone (Solo/Co-op references) do not change: reuse the first evaluation's rows.
        first = self.state["evaluations"][0]["results"] if self.state["evaluations"] else {}
        references = {k: v for k, v in first.items() if v.get("kind") == "reference"}
        return self.evaluate_policy(self.folder.latest, games, seed=self.eval_seed(), references=references)

    def evaluate_policy(self, path: Path, games: int, seed: int, workers: int | None = None,
                        references: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
        return evaluate_policy_file(self.config, path, games, seed, workers, references)

    def copy_policy(self, source: Path, target: Path) -> None:
        atomic_copy_model(source, target)

    def remove_policy(self, path: Path) -> None:
        for _, target in model_pair(path, path):
            target.unlink(missing_ok=True)

    def current_step(self) -> int:
        return int(self.model.num_timesteps)

    def metrics_logger(self) -> Any:
        return self.model.logger


def evaluate_policy_file(config: dict[str, Any], path: Path, games: int, seed: int, workers: int | None = None,
                         references: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """A saved policy against every evaluation bot of ``config``, as its run evaluates it."""
    evaluation, game = config["evaluation"], config["game"]
    if evaluation["engine"] == "vector":
        return evaluate_vector(str(path), game["env_id"], game["options"], list(evaluation["bots"]), games,
                               seed=seed, deterministic=evaluation["deterministic"])
    extra: dict[str, Any] = {} if workers is None else {"workers": workers}
    if references is not None:
        extra["references"] = references
    return evaluate_checkpoint(str(path), game["env_id"], game["options"], list(evaluation["bots"]), games,
                               seed=seed, seats=evaluation["seats"], deterministic=evaluation["deterministic"],
                               **extra)


# ---------------------------------------------------------------------- the callback
class TrainingCallback(BaseCallback):
    """Every scheduled thing during learning: progress bar, latest checkpoint, self-play
    snapshots, evaluations (best model), and the episode-reward curve."""

    def __init__(self, trainer: Trainer, vec_env: Any) -> None:
        super().__init__(verbose=0)
        self.trainer = trainer
        self.vec_env = vec_env
        config = trainer.config
        self.every_eval = config["evaluation"]["every"]
        self.every_checkpoint = config["output"]["checkpoint_every"]
        self.self_play = config["opponents"]["self_play"]
        self.total = config["training"]["total_timesteps"]
        self.bar: Any = None
        self.postfix: dict[str, str] = {}
        # Episodes finished since the last rollout end, by opponent: [episodes, reward sum, wins]
        self.by_opponent: dict[str, list[float]] = {}
        self.keep_at = sorted(config["output"]["keep_policies_at"])
        self.trained_to = 0  # the step of the weights as they stand: a rollout start, or the end
        self.started = 0.0

    def _due(self, every: int, start: int = 0) -> bool:
        """True when the step counter crossed a multiple of ``every`` in the last env step."""
        now = self.num_timesteps
        return now >= start and crossed_multiple(now - self.training_env.num_envs, now, every)

    def _on_training_start(self) -> None:
        self.trained_to, self.started = self.num_timesteps, time.perf_counter()
        if self.trainer.progress:
            from tqdm import tqdm

            # On-policy algorithms collect whole rollouts: the run ends on the next multiple.
            per_rollout = getattr(self.model, "n_steps", 1) * self.training_env.num_envs
            total = -(-self.total // per_rollout) * per_rollout
            self.bar = tqdm(total=total, initial=self.num_timesteps, unit="step", dynamic_ncols=True,
                            desc=f"train {self.trainer.env_id}", smoothing=0.05)
        evaluations = self.trainer.state["evaluations"]
        if self.every_eval and not evaluations:
            self._evaluate()  # the untrained policy: where the curve starts
        elif self.every_eval and self.num_timesteps < self.total:
            # A run stopped at a step whose evaluation had not run (the signal came first): run it
            # now, so the resumed curve has no hole.
            due = self.num_timesteps // self.every_eval * self.every_eval
            if due > max(e["step"] for e in evaluations):
                self._evaluate()

    def _on_step(self) -> bool:
        for info, done in zip(self.locals.get("infos", ()), self.locals.get("dones", ()), strict=False):
            if done and "episode" in info:
                for label in info.get("opponents", ()):
                    tally = self.by_opponent.setdefault(label, [0, 0.0, 0.0])
                    tally[0] += 1
                    tally[1] += float(info["episode"]["r"])
                    tally[2] += float(info.get("win", 0.0))
        if self.bar is not None:
            self.bar.update(self.training_env.num_envs)
        if self.self_play["enabled"] and self._due(self.self_play["snapshot_every"], self.self_play["start_after"]):
            self._snapshot()
        if self._due(self.every_eval) and self.num_timesteps < self.total:  # at the end: the final evaluation
            self._evaluate()
        if self._due(self.every_checkpoint):  # last: the checkpoint's state holds this step's evaluation
            self.trainer.save_checkpoint(self.model)
        return True

    def _on_rollout_start(self) -> None:
        self._keep_crossed()

    def _on_training_end(self) -> None:
        self._keep_crossed()

    def _keep_crossed(self) -> None:
        """Keep the policy for each ``output.keep_policies_at`` step passed since the last update:
        the weights here are the ones a run of that budget ends with (on-policy runs stop at the
        first whole rollout past their budget, and these are the weights after that rollout's
        update). A step passed before a resume was kept then or not at all, never later."""
        now = self.num_timesteps
        crossed = [step for step in self.keep_at if self.trained_to < step <= now]
        self.trained_to = now
        trainer = self.trainer
        seconds = trainer.state["train_seconds"] + time.perf_counter() - self.started
        for step in crossed:
            path = trainer.folder.kept_policy(step)
            with trainer.guard.saving():
                trainer.save_policy(self.model, path)
                record = {"budget": step, "timesteps": int(now), "train_seconds": round(seconds, 1)}
                atomic_write_text(path.with_suffix(".record.json"), json.dumps(record))

    def _on_rollout_end(self) -> None:
        curves = self.trainer.state.setdefault("opponent_curves", {})
        for label, (episodes, reward, wins) in sorted(self.by_opponent.items()):
            # [step, mean episode reward, win rate, episodes] over this rollout's episodes vs label
            curves.setdefault(label, []).append([int(self.num_timesteps), reward / episodes, wins / episodes,
                                                 int(episodes)])
            self.logger.record(f"train/reward_vs_{_slug(label)}", reward / episodes)
            self.logger.record(f"train/win_rate_vs_{_slug(label)}", wins / episodes)
        self.by_opponent = {}
        buffer = self.model.ep_info_buffer
        if buffer:
            mean = float(np.mean([e["r"] for e in buffer]))
            self.trainer.state["rewards"].append([int(self.num_timesteps), mean])
            self.postfix["reward"] = f"{mean:+.2f}"
            if self.bar is not None:
                self.bar.set_postfix(self.postfix, refresh=False)

    def _snapshot(self) -> None:
        trainer = self.trainer
        path = trainer.folder.snapshots / f"step_{self.num_timesteps}.safetensors"
        with trainer.guard.saving():
            trainer.save_policy(self.model, path, slim=True)
            snapshots = trainer.state["snapshots"]
            snapshots.append(str(path))
            del snapshots[:-trainer.config["opponents"]["self_play"]["pool_size"]]
            trainer.folder.save_state(trainer.state)
        specs, weights = opponent_pool(trainer.config, snapshots)
        self.vec_env.env_method("set_opponent_pool", specs, weights)

    def _evaluate(self) -> None:
        trainer = self.trainer
        results = trainer.evaluate(self.model, trainer.config["evaluation"]["games"])
        trainer.record_evaluation(results)
        for label, row in results.items():
            self.postfix[f"win[{label}]"] = f"{row['win_rate']:.0%}"
        if self.bar is not None:
            self.bar.set_postfix(self.postfix)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
