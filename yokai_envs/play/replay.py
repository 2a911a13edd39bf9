"""Replay files: one game as JSON (env id and version, options, seed, agents, actions, result).

A game is fully determined by its env id, options, seed and action list (chance comes only
from the game's seeded generator), so that is what a replay stores; the result and a hash of
the final state tensor are stored too, and loading checks the rebuilt game reproduces them.

    from yokai_envs.play import save_replay, load_replay
    save_replay("game.json", game, ["human", "heuristic", "random", "random"])
    game = load_replay("game.json").build_game()   # the same final state, checked

A replay is version-locked: a file recorded with ``yonkai_no_yokai_v0`` is refused by a
package that only has ``yonkai_no_yokai_v1``, because rules may differ between versions.
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from yokai_envs.core.errors import IllegalActionError
from yokai_envs.core.game import Game

FORMAT = "yokai-replay"
FORMAT_VERSION = 1
_VERSIONED = re.compile(r"^(?P<base>.+)_v(?P<version>\d+)$")


class ReplayError(ValueError):
    """A replay file that cannot be read, is for another env version, or does not reproduce."""


def package_version() -> str:
    import yokai_envs

    return str(getattr(yokai_envs, "__version__", "unknown"))


def state_digest(game: Game) -> str:
    """sha256 of the full state tensor: equal digests mean the same state."""
    tensor = np.ascontiguousarray(game.state_tensor(), dtype=np.float32)
    return hashlib.sha256(tensor.tobytes()).hexdigest()


def check_env_id(env_id: str) -> None:
    """ReplayError unless ``env_id`` (with its version) is registered in this package."""
    from yokai_envs.registry import ENV_IDS

    if env_id in ENV_IDS:
        return
    wanted = _VERSIONED.match(str(env_id))
    if wanted:
        same_game = [e for e in ENV_IDS if (m := _VERSIONED.match(e)) and m["base"] == wanted["base"]]
        if same_game:
            raise ReplayError(
                f"replay was recorded with env {env_id!r} but this yokai-envs {package_version()} has "
                f"{', '.join(same_game)}; a replay only plays on the env version that recorded it")
    raise ReplayError(f"replay is for unknown env {env_id!r}; registered env ids: {', '.join(ENV_IDS)}")


def _jsonable(value: Any, where: str) -> Any:
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError) as err:
        raise ReplayError(f"{where} cannot be written to a replay file (not JSON-able): {err}") from None


def game_options(game: Game) -> dict[str, Any]:
    """Every option the game was made with (defaults filled in), JSON-able, incl. max_steps."""
    return _jsonable({**game.options, "max_steps": game.max_steps}, f"{game.env_id} options")


@dataclass
class Step:
    """The state after ``index`` actions; ``action``/``actor`` made it (None at index 0).

    ``seen`` maps a seat (or None: omniscient) to how that seat saw the action (None: hidden).
    """

    index: int
    game: Game
    actor: int | None = None
    action: int | None = None
    seen: dict[int | None, str | None] = field(default_factory=dict)


@dataclass
class Replay:
    env_id: str
    options: dict[str, Any]
    seed: int | None
    agents: list[str]
    actions: list[int]
    result: dict[str, Any] = field(default_factory=dict)
    package_version: str = ""
    final_state_sha256: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ writing
    @classmethod
    def record(cls, game: Game, agents: Sequence[str], **meta: Any) -> Replay:
        """The replay of ``game`` as it stands (finished or not); ``agents`` names each seat's player."""
        agents = [str(a) for a in agents]
        if len(agents) != game.num_players:
            raise ReplayError(f"{game.env_id}: {len(agents)} agent spec(s) given for {game.num_players} seats")
        if game.seed is None or isinstance(game.seed, bool) or not isinstance(game.seed, int | np.integer):
            raise ReplayError(f"{game.env_id}: only a game reset with an integer seed can be replayed, "
                              f"got seed {game.seed!r}")
        result = {"returns": [float(r) for r in game.returns()], "terminal": bool(game.is_terminal),
                  "truncated": bool(game.is_truncated), "steps": int(game.steps)}
        return cls(env_id=game.env_id, options=game_options(game), seed=int(game.seed),
                   agents=agents, actions=[int(a) for a in game.action_history], result=result,
                   package_version=package_version(), final_state_sha256=state_digest(game),
                   meta=_jsonable({"created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **meta}, "meta"))

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "format_version": FORMAT_VERSION, "env_id": self.env_id, "options": self.options,
                "seed": self.seed, "agents": self.agents, "actions": self.actions, "result": self.result,
                "package_version": self.package_version, "final_state_sha256": self.final_state_sha256,
                "meta": self.meta}

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        return path

    # ------------------------------------------------------------------ reading
    @classmethod
    def from_json(cls, data: Any, source: str = "replay") -> Replay:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ReplayError(f"{source}: not a yokai replay file (expected a JSON object with format {FORMAT!r})")
        if data.get("format_version") != FORMAT_VERSION:
            raise ReplayError(f"{source}: replay format version {data.get('format_version')!r} is not supported "
                              f"(this package reads version {FORMAT_VERSION})")
        for key, kind in (("env_id", str), ("options", dict), ("agents", list), ("actions", list)):
            if not isinstance(data.get(key), kind):
                raise ReplayError(f"{source}: field {key!r} must be a {kind.__name__}, got {data.get(key)!r}")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise ReplayError(f"{source}: field 'seed' must be an integer or null, got {seed!r}")
        bad = [a for a in data["actions"] if not isinstance(a, int) or isinstance(a, bool)]
        if bad:
            raise ReplayError(f"{source}: actions must be integers, got {bad[0]!r}")
        return cls(env_id=data["env_id"], options=data["options"], seed=seed, agents=[str(a) for a in data["agents"]],
                   actions=list(data["actions"]), result=dict(data.get("result") or {}),
                   package_version=str(data.get("package_version", "")),
                   final_state_sha256=data.get("final_state_sha256"), meta=dict(data.get("meta") or {}))

    # ------------------------------------------------------------------ replaying
    def new_game(self) -> Game:
        """A fresh game of this replay's env and options, reset to its seed (no actions yet)."""
        from yokai_envs.registry import make_game

        check_env_id(self.env_id)
        try:
            game = make_game(self.env_id, **self.options)
        except ValueError as err:
            raise ReplayError(f"replay options do not fit {self.env_id}: {err}") from None
        if len(self.agents) != game.num_players:
            raise ReplayError(f"replay names {len(self.agents)} agents but {self.env_id} with these options "
                              f"has {game.num_players} seats")
        game.reset(self.seed)
        return game

    def steps(self) -> Iterator[Step]:
        """Step 0 (the deal), then the state after each action; the same Game object is advanced."""
        game = self.new_game()
        yield Step(0, game)
        seats: list[int | None] = [None, *range(game.num_players)]
        for index, action in enumerate(self.actions, start=1):
            actor = game.current_player
            try:
                name = game.action_name(action) if 0 <= action < game.num_actions else f"<no action {action}>"
                seen = {s: name if s is None else game.public_action_name(action, s) for s in seats}
                game.step(action)
            except IllegalActionError as err:
                raise ReplayError(f"replay does not fit {self.env_id} at step {index}: {err}") from None
            yield Step(index, game, actor, action, seen)
        if self.final_state_sha256 and state_digest(game) != self.final_state_sha256:
            raise ReplayError(f"replay did not reproduce: the final state differs from the recorded one "
                              f"(recorded with yokai-envs {self.package_version or 'unknown'}, "
                              f"this is {package_version()})")

    def build_game(self) -> Game:
        """The game after every action, checked against the recorded final state."""
        game = None
        for step in self.steps():
            game = step.game
        assert game is not None
        return game


def load_replay(path: str | Path) -> Replay:
    """Read a replay file; ReplayError naming the file when it is missing or malformed."""
    path = Path(path)
    if not path.is_file():
        raise ReplayError(f"replay file {str(path)!r} does not exist")
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ReplayError(f"replay file {str(path)!r} is not valid JSON: {err}") from None
    return Replay.from_json(data, source=f"replay file {str(path)!r}")


def save_replay(path: str | Path, game: Game, agent_specs: Sequence[str], **meta: Any) -> Path:
    """Write ``game`` (its seed, options and action history) to ``path`` as a replay file.

    ``agent_specs`` names who played each seat (spec strings, or "human"). Extra keyword
    arguments go to the file's ``meta`` (e.g. ``source="evaluate"``). Returns the path.
    """
    return Replay.record(game, agent_specs, **meta).save(path)


def save_match_replays(result: Any, out_dir: str | Path, count: int) -> list[Path]:
    """Write the first ``count`` games of an arena result (``agents.arena.MatchResult``) as
    replay files ``out_dir/game_00000.json``...; each game is rebuilt from its deal seed and
    actions, so the file holds the exact final state."""
    from yokai_envs.registry import make_game

    if count < 0:
        raise ReplayError(f"the number of replays to save must be >= 0, got {count}")
    out = Path(out_dir)
    paths = []
    for record in result.records[:count]:
        if "actions" not in record:
            raise ReplayError("the arena kept no action lists (keep_actions=False): nothing to replay")
        game = make_game(result.env_id, **result.env_options)
        game.replay(record["deal_seed"], record["actions"])
        paths.append(save_replay(out / f"game_{record['index']:05d}.json", game, record["seats"], source="evaluate",
                                 game_index=record["index"], table=record["table"],
                                 agent_seeds=record.get("agent_seeds")))
    return paths
