"""An OpenSpiel bridge: every env id as a pyspiel python game, over the Game contract.

    import pyspiel
    from yokai_envs.envs import openspiel

    openspiel.register_all()                          # once per process
    game = pyspiel.load_game("yonkai_no_yokai_v1", {"num_players": 3})
    state = game.new_initial_state()

The pyspiel game's name is the env id; its parameters are the game's options (ints, floats,
bools and strings as they are; an option whose default is None, a tuple or a list is a string
parameter holding JSON, "" for the default), ``max_steps`` and ``max_cycles`` (0 = none).
``new_initial_state()`` is the chance node of the deal: apply a seed (``state.apply_action(seed)``)
for a given deal, or let the algorithm sample it (every OpenSpiel algorithm handles chance nodes).

**What OpenSpiel is told** (:func:`game_type`):

* ``SEQUENTIAL`` dynamics (one seat decides at a time; Onmyoji's simultaneous face-down choice is
  sequential with hidden actions in the Game contract), ``IMPERFECT_INFORMATION``.
* Chance is ``EXPLICIT_STOCHASTIC`` with **one** chance event, the first: the initial state is a
  chance node whose outcome is the deal seed (uniform over :data:`DEAL_SEEDS` seeds). Each
  engine draws its deals, draws and shuffles from a generator seeded by it, inside the rules, so
  the seed and the action history rebuild a state exactly: the state serializes
  (``random_sim_test(serialize=True)``, ``pyspiel.serialize_game_and_state``). Listing every
  draw as its own chance node would mean rewriting every rules engine around chance nodes.
  ``clone()`` copies the engine with its generator (a clone replays the same future), and
  ``resample_from_infostate`` (:meth:`Game.determinize`) draws a new hidden world *and* re-seeds
  its future draws, which is what ISMCTS needs (such a world is no longer the replay of its
  history; it still serializes, its engine pickled whole). So algorithms that sample (MCTS/ISMCTS,
  outcome sampling MCCFR, RL through ``rl_environment``, which samples the deal) work; those that
  enumerate the tree (full CFR, exact best responses) do not, the tree being far too large.
  (A sampled-stochastic python game cannot serialize: OpenSpiel then asks the game for its
  generator's state, ``GetRNGState``, which a python game cannot provide.)
* Utility: what the game says of its options (:attr:`Game.zero_sum`): ``ZERO_SUM`` when its
  returns always sum to zero (YYH, YOKAIZO), ``GENERAL_SUM`` otherwise (Yonkai no Yokai's winners
  and losers do not cancel; in Onmyoji both Duel players can lose; Solo and Co-op have no
  opponent). The registered type of an id is zero-sum when every configuration it declares is.
  ``TERMINAL`` reward model: the returns are the game's ``returns()`` once it is over, 0 before
  (a truncated game is over too).
* ``information_state_string(p)`` is :meth:`Game.information_state` (the seat's event record:
  equal strings for histories it cannot tell apart); ``observation_string(p)`` is the seat's
  text view (its ``render_for``, else its observation vector); ``observation_tensor(p)``
  is :meth:`Game.observation`. ``information_state_tensor(p)`` (the perfect-recall observer) is
  the observation followed by the seat's last :data:`EVENT_WINDOW` recorded events, each as
  :data:`EVENT_WIDTH` slots of ``value + 1`` (0: empty), oldest first: a fixed size for
  tensor-based algorithms (NFSP, deep CFR-style nets); a record longer than the window keeps its
  older events only in the string. Before the deal (the chance node) every tensor is zeros.
* Utility bounds are the game's :meth:`Game.utility_bounds` under its options ([-4, 0] for Yonkai
  no Yokai's ``reward="lives"``, [-1, 1] otherwise); ``max_game_length`` is ``max_steps``.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from yokai_envs.core.game import Game
from yokai_envs.core.protocols import SeatText, render_text
from yokai_envs.registry import ENV_IDS, game_class

#: How many deal seeds the opening chance node offers (uniformly): each a different deal.
DEAL_SEEDS = 2**16
#: The information-state tensor's event window: events kept, and int slots per event.
EVENT_WINDOW = 256
EVENT_WIDTH = 8
_PRIMITIVES = (bool, int, float, str)


def parameter_spec(env_id: str) -> dict[str, Any]:
    """pyspiel parameters of ``env_id``: its options (JSON strings where not primitive) and caps."""
    cls = game_class(env_id)
    spec: dict[str, Any] = {}
    for name, default in cls.OPTIONS.items():
        spec[name] = default if isinstance(default, _PRIMITIVES) else ""
    spec.update(max_steps=cls.DEFAULT_MAX_STEPS, max_cycles=0)
    return spec


def options_from_params(env_id: str, params: dict[str, Any]) -> dict[str, Any]:
    """The Game options that pyspiel ``params`` stand for."""
    cls = game_class(env_id)
    options: dict[str, Any] = {}
    for name, default in cls.OPTIONS.items():
        if name not in params:
            continue
        value = params[name]
        if isinstance(default, _PRIMITIVES):
            options[name] = value
        elif value != "":
            decoded = json.loads(value)
            options[name] = tuple(decoded) if isinstance(default, tuple) and isinstance(decoded, list) else decoded
    if "max_steps" in params:
        options["max_steps"] = int(params["max_steps"])
    if int(params.get("max_cycles", 0)) > 0:
        options["max_cycles"] = int(params["max_cycles"])
    return options


def game_type(env_id: str, zero_sum: bool | None = None) -> pyspiel.GameType:
    """The pyspiel game type of ``env_id``; ``zero_sum`` None: whether every configuration the
    game declares is zero-sum (the type registered for the id), else that of one instance."""
    cls = game_class(env_id)
    declared = [cls(**config) for config in cls.CONFORMANCE_CONFIGS]
    players = [game.num_players for game in declared]
    if zero_sum is None:
        zero_sum = all(game.zero_sum for game in declared)
    return pyspiel.GameType(
        short_name=env_id,
        long_name=f"yokai-envs {env_id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=parameter_spec(env_id),
    )


class YokaiSpielGame(pyspiel.Game):
    """One env id as a pyspiel game (see the module docstring)."""

    env_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**parameter_spec(self.env_id), **(params or {})}
        self.options = options_from_params(self.env_id, params)
        self.prototype: Game = game_class(self.env_id)(**self.options)
        engine = self.prototype
        low, high = engine.utility_bounds()
        info = pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=DEAL_SEEDS,
            num_players=engine.num_players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=0.0 if engine.zero_sum else None,
            max_game_length=engine.max_steps,
        )
        super().__init__(game_type(self.env_id, engine.zero_sum), info, params)

    def new_initial_state(self) -> YokaiSpielState:
        """The chance node before the deal (its outcome: the deal seed)."""
        engine = game_class(self.env_id)(**self.options)
        engine.record_information()  # information_state_string reads the record
        return YokaiSpielState(self, engine)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> YokaiObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return YokaiObserver(self.prototype.observation_size, perfect_recall)


class _Engine:
    """Holds a state's rules engine; pyspiel clones a python state with ``copy.deepcopy``, and
    this makes that the engine's own fast ``clone()`` with a record of its own."""

    __slots__ = ("dealt", "game")

    def __init__(self, game: Game, dealt: bool = True) -> None:
        self.game = game
        self.dealt = dealt  # False at the opening chance node: the engine is not reset yet

    def __deepcopy__(self, memo: dict) -> _Engine:
        if not self.dealt:  # a fresh engine of its own: resetting one must not deal the other
            fresh = type(self.game)(**self.game.options)
            fresh.record_information()
            return _Engine(fresh, False)
        twin = self.game.clone()
        twin.detach_record()
        return _Engine(twin)

    def __getstate__(self) -> tuple[Game, bool]:
        return self.game, self.dealt

    def __setstate__(self, state: tuple[Game, bool]) -> None:
        self.game, self.dealt = state


class YokaiSpielState(pyspiel.State):
    """A pyspiel state holding one rules engine."""

    def __init__(self, game: YokaiSpielGame, engine: Game) -> None:
        super().__init__(game)
        self._engine = _Engine(engine, dealt=False)

    @property
    def dealt(self) -> bool:
        return self._engine.dealt

    @property
    def engine(self) -> Game:
        return self._engine.game

    @engine.setter
    def engine(self, game: Game) -> None:
        self._engine = _Engine(game)

    def current_player(self) -> int:
        if not self.dealt:
            return int(pyspiel.PlayerId.CHANCE)
        engine = self.engine
        return int(pyspiel.PlayerId.TERMINAL) if engine.is_over else int(engine.current_player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealt:
            return []
        return list(zip(range(DEAL_SEEDS), [1.0 / DEAL_SEEDS] * DEAL_SEEDS, strict=True))

    def _legal_actions(self, player: int) -> list[int]:
        if not self.dealt:
            return []
        engine = self.engine
        if engine.is_over or player != engine.current_player:
            return []
        return np.flatnonzero(engine.legal_action_mask()).tolist()

    def _apply_action(self, action: int) -> None:
        if not self.dealt:
            if not 0 <= int(action) < DEAL_SEEDS:
                raise ValueError(f"deal seed {action} is outside the chance outcomes 0..{DEAL_SEEDS - 1}")
            self.engine.reset(int(action))
            self._engine.dealt = True
            return
        self.engine.step(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"deal seed {int(action)}"
        return self.engine.action_name(int(action))

    def is_terminal(self) -> bool:
        return self.dealt and self.engine.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.engine.num_players
        return [float(r) for r in self.engine.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> YokaiSpielState:
        """A state ``player_id`` cannot tell from this one (:meth:`Game.determinize`), with its
        future chance re-seeded from ``probability_sampler``."""
        seed = int(probability_sampler() * 2**53)
        world = self.engine.determinize(int(player_id), np.random.default_rng(seed))
        twin = self.clone()
        twin.engine = world
        return twin

    def __str__(self) -> str:
        return render_text(self.engine) if self.dealt else "before the deal (chance: the deal seed)"


class YokaiObserver:
    """pyspiel python observer: the observation vector (perfect recall: followed by the seat's
    latest events, see the module docstring) as tensor; the information state (perfect recall)
    or the seat's view as string."""

    def __init__(self, observation_size: int, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.observation_size = observation_size
        events = EVENT_WINDOW * EVENT_WIDTH if perfect_recall else 0
        self.tensor = np.zeros(observation_size + events, dtype=np.float32)
        self.dict = {"observation": self.tensor[:observation_size]}
        if perfect_recall:
            self.dict["events"] = self.tensor[observation_size:].reshape(EVENT_WINDOW, EVENT_WIDTH)

    def set_from(self, state: YokaiSpielState, player: int) -> None:
        self.tensor[:] = 0.0
        if not state.dealt:
            return
        engine = state.engine
        self.tensor[:self.observation_size] = engine.observation(player)
        if self.perfect_recall:
            window = self.dict["events"]
            for row, event in enumerate(engine.seen_events(player)[-EVENT_WINDOW:]):
                if len(event) > EVENT_WIDTH:
                    raise ValueError(f"event {event} has more than {EVENT_WIDTH} fields: raise EVENT_WIDTH")
                window[row, :len(event)] = np.asarray(event, dtype=np.float32) + 1.0

    def string_from(self, state: YokaiSpielState, player: int) -> str:
        if not state.dealt:
            return ""
        engine = state.engine
        if self.perfect_recall:
            return engine.information_state(player)
        if isinstance(engine, SeatText):
            return engine.render_for(player)
        return " ".join(f"{x:g}" for x in engine.observation(player))


def register(env_id: str) -> str:
    """Register ``env_id`` with pyspiel (idempotent); returns the pyspiel game name."""
    if env_id in pyspiel.registered_names():
        return env_id
    game = type(f"YokaiSpielGame_{env_id}", (YokaiSpielGame,), {"env_id": env_id})
    pyspiel.register_game(game_type(env_id), game)
    return env_id


def register_all() -> list[str]:
    """Register every env id; returns their pyspiel names."""
    return [register(env_id) for env_id in ENV_IDS]


def load_game(env_id: str, **options: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` of ``env_id`` with Game options given as Python values."""
    register(env_id)
    cls = game_class(env_id)
    params: dict[str, Any] = {}
    for name, value in options.items():
        if name in cls.OPTIONS and not isinstance(cls.OPTIONS[name], _PRIMITIVES):
            params[name] = json.dumps(list(value) if isinstance(value, tuple) else value)
        elif name == "max_cycles" and value is None:
            params[name] = 0
        else:
            params[name] = value
    return pyspiel.load_game(env_id, params)
