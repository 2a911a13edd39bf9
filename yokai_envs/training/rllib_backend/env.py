"""The RLlib multi-agent env: RLlib's ``PettingZooEnv`` over the registered AEC env, with the
seats that RLlib does not control played by bots inside the env.

Every episode each seat gets a *role*, and the agent id RLlib sees names it:
``"<module>@<seat>"`` (``learner@2``, ``snapshot_1@0``). The policy mapping function is then
just ``agent_id.split("@")[0]`` (see :func:`module_for_agent`), so the env alone decides who
plays where, from its own seeded generator: reproducible, and the same in every env runner.

* **learner**: the policy being trained. One seat per episode, rotated (or fixed by
  ``learner_seat``); in a cooperative game (Onmyoji Co-op) every seat, one shared policy
  (parameter sharing); in a one-seat game (Onmyoji Solo) the only seat.
* **snapshot_k**: a frozen copy of the learner (self-play). RLlib holds these RLModules and
  never trains them; the trainer tells the env which slots are filled (:func:`set_pool_everywhere`).
* **bots** (``random``, ``heuristic``, ``ismcts:...``, ``policy:PATH``): played here, on the
  live game, exactly as the arena plays them; RLlib never sees those seats.

Observations are PettingZoo's ``{"observation", "action_mask"}`` dicts (the masking RLModule
applies the mask). Rewards are the AEC env's: each agent gets what happened to its own return
since its previous decision, handed out when it next observes (or at the end). The final
``infos`` of an RLlib seat hold ``returns`` and ``win`` (the arena's win credit).
"""

from __future__ import annotations

import weakref
from typing import Any

import gymnasium as gym
import numpy as np
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.typing import AgentID, MultiAgentDict

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.game import win_credits
from yokai_envs.registry import make
from yokai_envs.training.gym_env import build_agent

LEARNER = "learner"
SNAPSHOT_PREFIX = "snapshot_"
# A deal that ends before any RLlib seat must decide is dealt again; this many tries at most.
_MAX_REDEALS = 100
# Every live env of this process, so the trainer can update the opponent pool in place.
_LIVE_ENVS: weakref.WeakSet[YokaiMultiAgentEnv] = weakref.WeakSet()


def snapshot_id(slot: int) -> str:
    return f"{SNAPSHOT_PREFIX}{slot}"


def agent_id(module_id: str, seat: int) -> str:
    return f"{module_id}@{seat}"


def module_for_agent(agent: AgentID, *args: Any, **kwargs: Any) -> str:
    """RLlib's ``policy_mapping_fn``: the module named in the agent id."""
    return str(agent).split("@", 1)[0]


def seat_of(agent: AgentID) -> int:
    return int(str(agent).rsplit("@", 1)[1])


class YokaiMultiAgentEnv(MultiAgentEnv):
    """See the module docstring. ``config`` (RLlib's ``env_config``) holds ``env_id``,
    ``options`` (game options), ``bots`` ([spec, weight] pairs), ``snapshot_weight``,
    ``pool_size``, ``learner_seat`` (None rotates) and ``seed``."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        # RLlib hands an EnvContext (a dict with the env runner's index); a plain dict works too.
        self.worker_index = int(getattr(config, "worker_index", 0) or 0)
        config = dict(config or {})
        if "env_id" not in config:
            raise ConfigError("env_config needs env_id")
        self.env_id: str = config["env_id"]
        self.options: dict[str, Any] = dict(config.get("options") or {})
        aec = make(self.env_id, **self.options)
        self.pz = PettingZooEnv(aec)
        self.game = self.pz.env.unwrapped.game
        game = self.game
        self.num_players = game.num_players
        self.cooperative = game.cooperative
        self.needs_opponents = self.num_players > 1 and not self.cooperative
        self.learner_seat = config.get("learner_seat")
        self.bot_specs = [(str(spec), float(weight)) for spec, weight in config.get("bots") or []]
        self.snapshot_weight = float(config.get("snapshot_weight", 1.0))
        self.pool_size = int(config.get("pool_size", 0))
        self.filled_slots: list[int] = []
        if self.needs_opponents and not any(w > 0 for _, w in self.bot_specs):
            raise ConfigError(f"{self.env_id} with {self.num_players} seats needs at least one opponent bot "
                              "(bots play until the first self-play snapshot)")
        self.rng = np.random.default_rng(config.get("seed"))
        self._episode = 0
        self._bots: dict[tuple[str, int], Any] = {}
        self._roles: list[str] = []  # seat -> module id, or "bot:<spec>"
        self._seat_bots: dict[int, Any] = {}

        space = self._observation_space = aec.observation_space("player_0")
        action = self._action_space = aec.action_space("player_0")
        modules = [LEARNER, *(snapshot_id(k) for k in range(self.pool_size))]
        self.possible_agents = [agent_id(m, s) for m in modules for s in range(self.num_players)]
        self.agents = []
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = dict.fromkeys(self.possible_agents, action)
        _LIVE_ENVS.add(self)

    # ------------------------------------------------------------------ opponent pool
    def set_pool(self, filled_slots: list[int]) -> None:
        """The snapshot slots that hold a policy (from the next episode on)."""
        self.filled_slots = [int(k) for k in filled_slots if 0 <= int(k) < self.pool_size]

    def _assign_roles(self) -> None:
        n = self.num_players
        if not self.needs_opponents:
            self._roles = [LEARNER] * n
            self._seat_bots = {}
            return
        if self.learner_seat is None:
            learner = (self._episode + self._seat_offset) % n
        else:
            learner = int(self.learner_seat)
        choices = [f"bot:{spec}" for spec, _ in self.bot_specs] + [snapshot_id(k) for k in self.filled_slots]
        weights = [w for _, w in self.bot_specs]
        if self.filled_slots:
            weights += [self.snapshot_weight / len(self.filled_slots)] * len(self.filled_slots)
        p = np.asarray(weights, dtype=np.float64)
        p = p / p.sum()
        roles = []
        self._seat_bots = {}
        for seat in range(n):
            if seat == learner:
                roles.append(LEARNER)
                continue
            role = choices[int(self.rng.choice(len(choices), p=p))]
            roles.append(role)
            if role.startswith("bot:"):
                bot = self._bot(role[4:], seat)
                bot.reset(int(self.rng.integers(2**31)))
                self._seat_bots[seat] = bot
        self._roles = roles

    def _bot(self, spec: str, seat: int) -> Any:
        key = (spec, seat)
        if key not in self._bots:
            self._bots[key] = build_agent(spec, self.env_id, self.options, int(self.rng.integers(2**31)))
        return self._bots[key]

    # ------------------------------------------------------------------ MultiAgentEnv API
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:
            # RLlib seeds env i of runner w with seed + w + i, which repeats across runners
            # (runner 1 env 1 == runner 2 env 0); the runner index makes every stream distinct.
            self.rng = np.random.default_rng([int(seed), self.worker_index])
        if seed is not None or not hasattr(self, "_seat_offset"):
            self._seat_offset = int(self.rng.integers(self.num_players))
        for _ in range(_MAX_REDEALS):
            self._observed: set[str] = set()
            self._assign_roles()
            self._episode += 1
            obs, _ = self.pz.reset(seed=int(self.rng.integers(2**62)))
            out = self._advance(obs, {}, {}, {}, {})
            if not out[2]["__all__"] and not out[3]["__all__"]:
                self.agents = [agent_id(self._roles[s], s) for s in range(self.num_players)
                               if not self._roles[s].startswith("bot:")]
                return out[0], out[4]
        raise RuntimeError(f"{self.env_id}: {_MAX_REDEALS} deals in a row ended before an RLlib seat could act")

    # RLlib's MultiAgentEnv.step (five per-agent dicts) itself departs from gymnasium's Env.step,
    # which mypy holds every subclass to
    def step(self, action_dict: MultiAgentDict) -> tuple[  # type: ignore[override]
            MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        (agent, action), = action_dict.items()
        seat = seat_of(agent)
        obs, rew, term, trunc, info = self.pz.step({f"player_{seat}": int(action)})
        return self._advance(obs, rew, term, trunc, info)

    def _advance(self, obs: dict, rew: dict, term: dict, trunc: dict,
                 info: dict) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        """Play bot seats until an RLlib seat must decide or the game ends; translate ids."""
        rewards: dict[str, float] = {}
        while True:
            for name, r in rew.items():
                seat = int(name.rsplit("_", 1)[1])
                if not self._roles[seat].startswith("bot:"):
                    key = agent_id(self._roles[seat], seat)
                    rewards[key] = rewards.get(key, 0.0) + float(r)
            game_over = bool(term.get("__all__") or trunc.get("__all__"))
            if game_over or len(obs) != 1:
                break
            (name, ob), = obs.items()
            seat = int(name.rsplit("_", 1)[1])
            bot = self._seat_bots.get(seat)
            if bot is None:
                break
            mask = ob["action_mask"].astype(bool)
            action = bot.act(ob["observation"], mask, self.game if getattr(bot, "needs_game", False) else None)
            obs, rew, term, trunc, info = self.pz.step({name: int(action)})
        return self._translate(obs, rewards, term, trunc, info)

    def _translate(self, obs: dict, rewards: dict, term: dict, trunc: dict,
                   info: dict) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        out_obs: MultiAgentDict = {}
        out_term: MultiAgentDict = {}
        out_trunc: MultiAgentDict = {}
        out_info: MultiAgentDict = {}
        done = bool(term.get("__all__") or trunc.get("__all__"))
        returns = np.asarray(self.game.returns(), dtype=np.float64) if done else None
        for name, ob in obs.items():
            seat = int(name.rsplit("_", 1)[1])
            role = self._roles[seat]
            key = agent_id(role, seat)
            # A seat that never got to decide before the end has no episode in RLlib to close.
            if role.startswith("bot:") or (done and key not in self._observed):
                continue
            self._observed.add(key)
            out_obs[key] = ob
            out_term[key] = bool(term.get(name, False))
            out_trunc[key] = bool(trunc.get(name, False))
            out_info[key] = dict(info.get(name) or {})
            if returns is not None:
                out_info[key].update(returns=returns.tolist(), win=float(win_credits(returns, self.cooperative)[seat]))
            rewards.setdefault(key, 0.0)
        out_term["__all__"] = bool(term.get("__all__", False))
        out_trunc["__all__"] = bool(trunc.get("__all__", False))
        out_rewards: MultiAgentDict = {k: v for k, v in rewards.items() if k in out_obs}
        return out_obs, out_rewards, out_term, out_trunc, out_info

    def get_observation_space(self, agent_id: AgentID) -> gym.Space:
        return (self.observation_spaces or {}).get(agent_id, self._observation_space)

    def get_action_space(self, agent_id: AgentID) -> gym.Space:
        return (self.action_spaces or {}).get(agent_id, self._action_space)

    def close(self) -> None:
        self.pz.close()


def set_pool_everywhere(filled_slots: list[int]) -> int:
    """Tell every live env of this process which snapshot slots are filled (run on each
    env runner through ``foreach_env_runner``). Returns how many envs it reached."""
    envs = list(_LIVE_ENVS)
    for env in envs:
        env.set_pool(filled_slots)
    return len(envs)
