"""Replay files: one game as JSON (env id and version, options, seed, agents, actions, result).

A game is fully determined by its env id, options, seed and action list (chance comes only
from the game's seeded generator), so that is what a replay stores; the result and a hash of
the final state tensor are stored too (both required), and replaying checks the rebuilt game
reproduces them: a file whose stated result or hash differs from the rebuilt game is refused,
and viewers show the rebuilt result. Every field is type-checked on load (ReplayError naming
the field), so a malformed file is an error message, never a traceback.

    from yokai_envs.play import save_replay, load_replay
    save_replay("game.json", game, ["human", "heuristic", "random", "random"])
    game = load_replay("game.json").build_game()   # the same final state, checked

The hash covers the agents list too (format version 2), so a file whose ``agents`` were edited
is refused like one whose actions were. Version 1 files (state-only hash) still replay, with
``agents_checked`` False: viewers say who played is unchecked.

A replay this user's package writes is signed (``hmac_sha256``: an HMAC-SHA256 with the per-user
key of yokai_envs/core/signing.py, kept outside every run folder). The digest alone can be
recomputed by anyone with this package, so a file whose agents were swapped and digest redone
would replay cleanly; its signature would not verify, and such a file is refused. An unsigned
file (older, or stripped of its signature, or written where signing is off) is loaded with
``verified`` False: its moves, result and digest are still checked against the rebuilt game,
but who played is only what the file says, and ``yokai replay`` says so.

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
from typing import Any, TypeGuard

import numpy as np

from yokai_envs.core.errors import IllegalActionError
from yokai_envs.core.files import parse_json, read_limited
from yokai_envs.core.game import Game, returns_agree
from yokai_envs.core.protocols import public_action_name
from yokai_envs.core.signing import HMAC_FIELD, check, sign, signing_key

FORMAT = "yokai-replay"
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)  # 1: the hash covers the final state only, not the agents
_VERSIONED = re.compile(r"^(?P<base>.+)_v(?P<version>\d+)$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
MAX_REPLAY_BYTES = 64 * 1024 * 1024


class ReplayError(ValueError):
    """A replay file that cannot be read, is for another env version, or does not reproduce."""


def package_version() -> str:
    import yokai_envs

    return str(getattr(yokai_envs, "__version__", "unknown"))


def state_digest(game: Game) -> str:
    """sha256 of the full state tensor: equal digests mean the same state."""
    tensor = np.ascontiguousarray(game.state_tensor(), dtype=np.float32)
    return hashlib.sha256(tensor.tobytes()).hexdigest()


def replay_digest(game: Game, agents: Sequence[str]) -> str:
    """sha256 of the full state tensor and the agents list (what a version 2 replay stores)."""
    tensor = np.ascontiguousarray(game.state_tensor(), dtype=np.float32)
    named = json.dumps([str(a) for a in agents], ensure_ascii=True).encode("ascii")
    return hashlib.sha256(tensor.tobytes() + b"\0agents\0" + named).hexdigest()


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

    ``seen`` maps a seat (or None: omniscient) to how that seat saw the action (None: hidden);
    ``log`` maps each seat to the lines of its public log (``Game.public_log``) that this step
    added: the decision as it saw it, then what happened because of it (reveals, draws, damage).
    """

    index: int
    game: Game
    actor: int | None = None
    action: int | None = None
    seen: dict[int | None, str | None] = field(default_factory=dict)
    log: dict[int, list[str]] = field(default_factory=dict)


@dataclass
class Replay:
    """One game as a file: the env id with its version, the options, the seed, who played each
    seat, the actions and the result, with a hash of the final state that loading checks."""

    env_id: str
    options: dict[str, Any]
    seed: int | None
    agents: list[str]
    actions: list[int]
    result: dict[str, Any] = field(default_factory=dict)
    package_version: str = ""
    final_state_sha256: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION
    #: The file's signature verified with this user's key (False: unsigned, never saved, or no
    #: key here to check it with).
    verified: bool = False
    #: Why a signature the file carries does not verify (refused once the game is rebuilt).
    signature_problem: str | None = None

    @property
    def agents_checked(self) -> bool:
        """Whether the stored hash covers the agents list (not in version 1 files)."""
        return self.format_version >= 2

    def digest(self, game: Game) -> str:
        """The hash this replay's version stores, of ``game`` as rebuilt."""
        return replay_digest(game, self.agents) if self.agents_checked else state_digest(game)

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
        result = game_result(game)
        return cls(env_id=game.env_id, options=game_options(game), seed=int(game.seed),
                   agents=agents, actions=[int(a) for a in game.action_history], result=result,
                   package_version=package_version(), final_state_sha256=replay_digest(game, agents),
                   meta=_jsonable({"created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), **meta}, "meta"))

    def to_json(self) -> dict[str, Any]:
        """The replay file's JSON object."""
        return {"format": FORMAT, "format_version": self.format_version, "env_id": self.env_id, "options": self.options,
                "seed": self.seed, "agents": self.agents, "actions": self.actions, "result": self.result,
                "package_version": self.package_version, "final_state_sha256": self.final_state_sha256,
                "meta": self.meta}

    def signed_json(self) -> dict[str, Any]:
        """:meth:`to_json` with this user's signature (unsigned when signing is off)."""
        key = signing_key(create=True)
        return sign(self.to_json(), key) if key is not None else self.to_json()

    def save(self, path: str | Path) -> Path:
        """Write the replay to ``path`` (atomically: a temporary file renamed into place)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(json.dumps(self.signed_json(), indent=1) + "\n")
        tmp.replace(path)
        return path

    # ------------------------------------------------------------------ reading
    @classmethod
    def from_json(cls, data: Any, source: str = "replay") -> Replay:
        """A Replay from parsed JSON; ReplayError naming ``source`` and the field for anything malformed."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ReplayError(f"{source}: not a yokai replay file (expected a JSON object with format {FORMAT!r})")
        version_read = data.get("format_version")
        if not _is_int(version_read) or version_read not in READABLE_VERSIONS:
            raise ReplayError(f"{source}: replay format version {version_read!r} is not supported "
                              f"(this package reads versions {', '.join(map(str, READABLE_VERSIONS))})")

        def fail(key: str, want: str) -> ReplayError:
            value = _short(data.get(key)) if key in data else "nothing (the field is missing)"
            return ReplayError(f"{source}: field {key!r} must be {want}, got {value}")

        for key, kind, want in (("env_id", str, "a string"), ("options", dict, "a JSON object"),
                                ("agents", list, "a list of agent names"), ("actions", list, "a list of actions"),
                                ("result", dict, "a JSON object (returns, terminal, truncated, steps)")):
            if not isinstance(data.get(key), kind):
                raise fail(key, want)
        seed = data.get("seed")
        if not _is_int(seed) or seed < 0:
            raise fail("seed", "a non-negative integer")
        for i, agent in enumerate(data["agents"]):
            if not isinstance(agent, str):
                raise ReplayError(f"{source}: agents[{i}] must be a string, got {_short(agent)}")
        for i, action in enumerate(data["actions"]):
            if not _is_int(action) or action < 0:
                raise ReplayError(f"{source}: actions[{i}] must be a non-negative integer, got {_short(action)}")
        digest = data.get("final_state_sha256")
        if not isinstance(digest, str) or not _SHA256.match(digest):
            raise fail("final_state_sha256", "the sha256 of the final state (64 hex digits; every replay carries "
                                             "it so a replay cannot be edited unnoticed)")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise fail("meta", "a JSON object")
        version = data.get("package_version", "")
        if not isinstance(version, str):
            raise fail("package_version", "a string")
        user_key = signing_key(create=False) if HMAC_FIELD in data else None
        problem = check(data, user_key) if user_key is not None else None
        verified = user_key is not None and problem is None
        return cls(env_id=data["env_id"], options=data["options"], seed=seed, agents=list(data["agents"]),
                   actions=list(data["actions"]), result=_check_result(data["result"], source),
                   package_version=version, final_state_sha256=digest, meta=dict(meta),
                   format_version=version_read, verified=verified,
                   signature_problem=None if problem is None else f"{source} {problem}")

    # ------------------------------------------------------------------ replaying
    def new_game(self) -> Game:
        """A fresh game of this replay's env and options, reset to its seed (no actions yet)."""
        from yokai_envs.registry import make_game

        check_env_id(self.env_id)
        try:
            game = make_game(self.env_id, **self.options)
        except (ValueError, TypeError, KeyError) as err:
            raise ReplayError(f"replay options do not fit {self.env_id}: {err}") from None
        if len(self.agents) != game.num_players:
            raise ReplayError(f"replay names {len(self.agents)} agents but {self.env_id} with these options "
                              f"has {game.num_players} seats")
        game.record_information()  # viewers show each seat's public log
        game.reset(self.seed)
        return game

    def steps(self) -> Iterator[Step]:
        """Step 0 (the deal), then the state after each action; the same Game object is advanced."""
        game = self.new_game()
        shown = [0] * game.num_players

        def new_lines() -> dict[int, list[str]]:
            out = {}
            for seat in range(game.num_players):
                lines = game.public_log(seat)
                out[seat], shown[seat] = lines[shown[seat]:], len(lines)
            return out

        yield Step(0, game, log=new_lines())
        seats: list[int | None] = [None, *range(game.num_players)]
        for index, action in enumerate(self.actions, start=1):
            actor = game.current_player
            if not 0 <= action < game.num_actions:  # names are looked up by index: check first
                raise ReplayError(f"replay does not fit {self.env_id} at step {index}: action {action} is out of "
                                  f"range (this game has actions 0..{game.num_actions - 1})")
            try:
                name = game.action_name(action)
                seen = {s: name if s is None else public_action_name(game, action, s) for s in seats}
                game.step(action)
            except IllegalActionError as err:
                raise ReplayError(f"replay does not fit {self.env_id} at step {index}: {err}") from None
            yield Step(index, game, actor, action, seen, new_lines())
        if not self.final_state_sha256:
            raise ReplayError("replay has no final_state_sha256: it cannot be checked, so it is not shown")
        if self.digest(game) != self.final_state_sha256:
            raise ReplayError(f"replay did not reproduce: the final state or the agents list differs from the "
                              f"recorded one "
                              f"(recorded with yokai-envs {self.package_version or 'unknown'}, "
                              f"this is {package_version()})")
        rebuilt = game_result(game)
        if self.signature_problem:  # a legal game whose agents or seeds were changed gets this far
            raise ReplayError(f"{self.signature_problem}; refusing it (who played may not be who the file "
                              f"names; a replay without {HMAC_FIELD} is shown as unsigned instead)")
        stated = self.result
        differs = [key for key in ("terminal", "truncated", "steps") if stated.get(key) != rebuilt[key]]
        returns = stated.get("returns")
        if not isinstance(returns, list) or not returns_agree(returns, rebuilt["returns"]):
            differs.insert(0, "returns")
        if differs:
            raise ReplayError(f"replay states a result the game does not give ({', '.join(differs)}): the file says "
                              f"{_result_text(stated)}, the rebuilt game gives {_result_text(rebuilt)}; "
                              "refusing a forged or edited replay")

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
    if path.is_dir():
        raise ReplayError(f"replay file {str(path)!r} is a folder; name a replay file (.json) in it")
    if not path.is_file():
        raise ReplayError(f"replay file {str(path)!r} does not exist")
    source = f"replay file {str(path)!r}"
    raw = read_limited(path, MAX_REPLAY_BYTES, source, "a replay", ReplayError)
    return Replay.from_json(parse_replay_json(raw, source), source=source)


def parse_replay_json(raw: bytes | str, source: str) -> Any:
    """JSON text as data: UTF-8, no key given twice, no NaN/Infinity; ReplayError naming ``source``."""
    return parse_json(raw, source, ReplayError)


def game_result(game: Game) -> dict[str, Any]:
    """What a replay states about the end of ``game`` (checked against the rebuilt game)."""
    return {"returns": [float(r) for r in game.returns()], "terminal": bool(game.is_terminal),
            "truncated": bool(game.is_truncated), "steps": int(game.steps)}


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: Any) -> str:
    text = f"{type(value).__name__} {json.dumps(value, default=str)[:60]}"
    return text


def _check_result(result: dict[str, Any], source: str) -> dict[str, Any]:
    returns = result.get("returns")
    if not isinstance(returns, list) or not all(isinstance(r, int | float) and not isinstance(r, bool)
                                                for r in returns):
        raise ReplayError(f"{source}: result.returns must be a list of numbers, got {_short(returns)}")
    for key in ("terminal", "truncated"):
        if not isinstance(result.get(key), bool):
            raise ReplayError(f"{source}: result.{key} must be true or false, got {_short(result.get(key))}")
    if not _is_int(result.get("steps")) or result["steps"] < 0:
        raise ReplayError(f"{source}: result.steps must be a non-negative integer, got {_short(result.get('steps'))}")
    return dict(result)


def _result_text(result: dict[str, Any]) -> str:
    status = "finished" if result.get("terminal") else ("truncated" if result.get("truncated") else "unfinished")
    returns = result.get("returns")
    shown = ", ".join(f"{float(r):+g}" for r in returns) if isinstance(returns, list) else repr(returns)
    return f"{status} after {result.get('steps')} steps, returns [{shown}]"


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
