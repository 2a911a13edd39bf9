"""The games behind ``yokai serve``: one human seat per game, bots in the others, saved to disk.

A :class:`Store` holds the games of one server by id. Each game is a :class:`Session`: the
Game itself (recording what every seat sees), the bots, and what the human saw of every move.
After every change the session is written to ``STATE_DIR/games/<id>.json`` as its env id,
options, seed, seats and actions (a game is fully determined by those), so a new Store on the
same folder continues every saved game. The HTTP layer (:mod:`yokai_envs.cli.serve`) only
turns requests into calls here; every refusal is an :class:`ApiError` with a status and a
message naming the problem, raised before anything changes.

What the human is sent (:meth:`Session.view`) is built only from its own seat's view: the
``table_view``/``render_for`` of that seat, its public log, the bots' moves as
``public_action_name`` shows them to it, and the legal actions when it is to act. The seed,
which would rebuild the whole deal, is sent only once the game is over (with the replay).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from yokai_envs.core.game import Game, is_integer
from yokai_envs.core.protocols import BalanceAxis, public_action_name, table_view

SAVE_FORMAT = "yokai-serve-game"
GAME_ID = re.compile(r"^[0-9a-f]{12}$")
MAX_SAVED_BYTES = 8 * 1024 * 1024  # a saved game is its actions: a long game is tens of KB
HUMAN = "human"
# Suggestions for the opponents field (free text: any spec serve_limits allows; files with --allow-files).
SPEC_EXAMPLES = ("random", "heuristic", "ismcts:iterations=200;rollout=heuristic", "pretrained",
                 "pretrained:search=true")


class ApiError(Exception):
    """A refused request: the HTTP status and a message for the page and the JSON API."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def default_state_dir() -> Path:
    """Where games are saved unless ``--state-dir`` says otherwise: the user's cache folder."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "yokai-envs" / "serve"


# ---------------------------------------------------------------------- what the form offers
def options_of(env_id: str) -> dict[str, dict[str, Any]]:
    """Each option's default and the choices the game names for it: the values of its
    conformance configs, its named variants and its ``balance_axis`` (decks, characters,
    difficulty levels). ``per_seat`` > 0: the option takes one choice per seat."""
    from yokai_envs.registry import game_class

    cls = game_class(env_id)
    out: dict[str, dict[str, Any]] = {}
    for name, default in cls.OPTIONS.items():
        scalar = default is None or isinstance(default, bool | int | float | str)
        choices = [default] if scalar and default is not None else []
        for config in cls.CONFORMANCE_CONFIGS:
            value = config.get(name)
            if value is not None and isinstance(value, bool | int | float | str) and value not in choices:
                choices.append(value)
        if name == "variant":
            choices += [v for v in cls.VARIANTS if v not in choices]
        out[name] = {"default": _plain(default), "choices": choices, "per_seat": 0}
    for config in cls.CONFORMANCE_CONFIGS:
        axis = cls.balance_axis({**cls.OPTIONS, **config}) if isinstance(cls, BalanceAxis) else None
        if axis is None or axis[0] not in out:
            continue
        name, values, per_seat = axis
        entry = out[name]
        if per_seat:
            seats = cls(**config).num_players
            entry["per_seat"] = max(entry["per_seat"], seats)
            # a per-seat default (YYH's ("random", "random")) is a choice for each seat too
            fillers = list(cls.OPTIONS[name]) if isinstance(cls.OPTIONS[name], tuple | list) else []
            entry["choices"] = [*dict.fromkeys([*fillers, *entry["choices"], *values])]
        else:
            entry["choices"] = [*dict.fromkeys([*entry["choices"], *values])]
    for entry in out.values():
        if all(is_integer(c) for c in entry["choices"]):
            entry["choices"].sort()
    return out


def catalog() -> dict[str, Any]:
    """What the new-game form offers: every registered env with its options, and agent specs."""
    from agents.specs import KINDS
    from yokai_envs.registry import ENV_IDS

    extra = [kind for kind in KINDS if kind not in ("random", "heuristic", "ismcts", "trained", "policy", "rllib",
                                                    "pretrained")]
    from yokai_envs.play.about import about, player_counts

    return {"games": [{"env_id": env_id, "options": options_of(env_id), "players": player_counts(env_id),
                       **about(env_id)} for env_id in ENV_IDS],
            "spec_examples": [*SPEC_EXAMPLES, *extra]}


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


# ---------------------------------------------------------------------- one game
@dataclass
class Session:
    game_id: str
    env_id: str
    options: dict[str, Any]
    seed: int
    seat: int
    agents: list[str]
    game: Game
    bots: dict[int, Any]
    moves: list[dict[str, Any]] = field(default_factory=list)  # every move as the human saw it
    created: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def start(cls, game_id: str, env_id: str, options: dict[str, Any], seed: int, seat: int, agents: list[str],
              actions: list[int] | None = None, created: str = "") -> Session:
        """Build the game and its bots; ValueError naming what is wrong with the request."""
        from agents import make as make_agent
        from yokai_envs.registry import make_game

        game = make_game(env_id, **options)
        n = game.num_players
        if not 0 <= seat < n:
            raise ValueError(f"seat {seat} is out of range: {env_id} with these options has seats 0..{n - 1}")
        if len(agents) != n or agents[seat] != HUMAN:
            raise ValueError(f"expected {n} seats with {HUMAN!r} at seat {seat}, got {agents}")
        bots = {s: make_agent(spec, env_id, options, seed=seed * 1000 + s) for s, spec in enumerate(agents)
                if s != seat}
        game.record_information()
        game.reset(seed)
        session = cls(game_id, env_id, options, seed, seat, agents, game, bots,
                      created=created or time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        for action in actions or []:
            if game.is_over or not 0 <= action < game.num_actions or not game.legal_action_mask()[action]:
                raise ValueError(f"saved action {action} at step {game.steps} is not legal in {env_id}")
            session._step(action)
        return session

    def _step(self, action: int) -> None:
        actor = self.game.current_player
        seen = public_action_name(self.game, action, self.seat)
        self.game.step(action)
        self.moves.append({"step": self.game.steps, "seat": actor, "agent": self.agents[actor], "seen": seen})

    def _check_step(self, step: Any) -> None:
        if step is None:
            return
        if not is_integer(step):
            raise ApiError(400, f"'step' must be the step number your view shows (an integer), got {step!r}")
        if int(step) != self.game.steps:
            raise ApiError(409, f"stale request: it was sent for step {step}, but the game is at step "
                                f"{self.game.steps}; reload the view")

    def checked_action(self, action: Any, step: Any = None) -> int:
        """The human's ``action`` as an int; ApiError (and no change) unless it is legal now."""
        game = self.game
        self._check_step(step)
        if game.is_over:
            raise ApiError(409, "the game is over: no more actions")
        if game.current_player != self.seat:
            who = game.current_player
            raise ApiError(409, f"it is player {who}'s turn ({self.agents[who]}), not yours: press next")
        if not is_integer(action):
            raise ApiError(400, f"'action' must be an action id (an integer), got {json.dumps(action)}")
        action = int(action)
        if not 0 <= action < game.num_actions:
            raise ApiError(400, f"there is no action {action} in {self.env_id} (ids 0..{game.num_actions - 1})")
        if not game.legal_action_mask()[action]:
            raise ApiError(400, f"action {action} ({game.action_name(action)}) is not legal now; legal ids: "
                                f"{', '.join(map(str, game.legal_actions()))}")
        return action

    def bot_action(self, step: Any = None) -> int:
        """The move the bot to act chooses (not yet played); ApiError when it is the human's turn or over."""
        from agents.base import act_in_game

        self._check_step(step)
        if self.game.is_over:
            raise ApiError(409, "the game is over: no bot is to move")
        if self.game.current_player == self.seat:
            raise ApiError(409, "it is your turn: choose an action")
        return int(act_in_game(self.bots[self.game.current_player], self.game))

    def act(self, action: Any, step: Any = None) -> None:
        self._step(self.checked_action(action, step))

    def advance(self, step: Any = None) -> None:
        self._step(self.bot_action(step))

    def view(self) -> dict[str, Any]:
        """Everything the human's page draws: only what its seat may see."""
        game, seat = self.game, self.seat
        over = game.is_over
        to_act = -1 if over else int(game.current_player)
        mine = to_act == seat
        view: dict[str, Any] = {
            "game_id": self.game_id, "env_id": self.env_id, "options": self.options, "seat": seat,
            "agents": self.agents, "step": game.steps, "to_act": to_act, "your_turn": mine,
            "phase": game.phase_name, "table": table_view(game, seat), "log": game.public_log(seat),
            "moves": self.moves[-12:],
            "legal": [{"id": a, "name": game.action_name(a)} for a in game.legal_actions()] if mine else [],
            "over": over, "result": None, "seed": None, "replay_url": None}
        from yokai_envs.play.words import dress

        dress(view, game, self.agents)
        if over:
            from yokai_envs.play.replay import game_result

            view["result"] = game_result(game)
            view["seed"] = str(self.seed)
            view["replay_url"] = f"/api/games/{self.game_id}/replay"
        return view

    def replay(self) -> dict[str, Any]:
        """The replay file of the finished game (the format ``yokai replay`` reads), signed with
        this user's key like every replay the package writes, so an edited download is refused."""
        from yokai_envs.play.replay import Replay

        if not self.game.is_over:
            raise ApiError(409, "the replay is available once the game is over (it holds the seed, which "
                                "would show every hidden card)")
        return Replay.record(self.game, self.agents, source="serve", human_seat=self.seat,
                             game_id=self.game_id).signed_json()

    def saved(self, then: list[int] | None = None) -> dict[str, Any]:
        """The saved file: the game so far, and ``then`` (a move about to be played)."""
        return {"format": SAVE_FORMAT, "version": 1, "game_id": self.game_id, "env_id": self.env_id,
                "options": self.options, "seed": self.seed, "seat": self.seat, "agents": self.agents,
                "actions": [int(a) for a in self.game.action_history] + (then or []), "created": self.created}


# ---------------------------------------------------------------------- every game of a server
class StateDirError(ValueError):
    """The state folder cannot hold the games (found at start, before serving)."""


def _saved_game(path: Path) -> dict[str, Any]:
    """A saved game file, its fields checked; ValueError naming what is wrong."""
    from yokai_envs.core.files import read_regular_file

    raw = read_regular_file(path, MAX_SAVED_BYTES, str(path), "a saved game", ValueError)
    data = json.loads(raw.decode("utf-8"))
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise ValueError("not a saved yokai serve game")
    fields = {"game_id": str, "env_id": str, "options": dict, "seed": int, "seat": int, "agents": list,
              "actions": list, "created": str}
    for name, kind in fields.items():
        if not isinstance(data.get(name), kind) or isinstance(data.get(name), bool):
            raise ValueError(f"field {name!r} is not a {kind.__name__}: {str(data.get(name))[:60]!r}")
    if data["game_id"] != path.stem:
        raise ValueError(f"its game_id {data['game_id']!r} is not its file name")
    if not all(isinstance(a, str) for a in data["agents"]) or not all(is_integer(a) for a in data["actions"]):
        raise ValueError("agents must be strings and actions integers")
    return data


class Store:
    """The server's games by id; each change is written to ``state_dir/games/<id>.json`` before
    it is made, so a move that cannot be saved is not made either."""

    def __init__(self, state_dir: str | Path, allow_files: bool = False) -> None:
        self.folder = Path(state_dir) / "games"
        self.allow_files = allow_files
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            probe = self.folder / f".write-test-{os.getpid()}"
            probe.write_bytes(b"")
            probe.unlink()
        except OSError as err:
            raise StateDirError(f"the state folder {self.folder} cannot hold the games: "
                                f"{err.strerror or err}") from None
        self.sessions: dict[str, Session] = {}
        self.lock = threading.Lock()  # held only to read or change ``sessions`` and ``loading``
        self.loading: dict[str, threading.Lock] = {}  # one per game being read from its file

    def _check(self, env_id: str, options: dict[str, Any], agents: list[str]) -> None:
        from yokai_envs.play.serve_limits import check_game

        check_game(env_id, options, agents, HUMAN, self.allow_files)

    def create(self, request: Any) -> Session:
        """A new game from a request ``{"env_id", "options", "seat", "opponents", "seed"}``."""
        if not isinstance(request, dict):
            raise ApiError(400, "the request body must be a JSON object with env_id, options, seat, opponents")
        unknown = sorted(set(request) - {"env_id", "options", "seat", "opponents", "seed"})
        if unknown:
            raise ApiError(400, f"unknown field(s) {', '.join(unknown)}; valid: env_id, options, seat, opponents, seed")
        env_id = request.get("env_id")
        if not isinstance(env_id, str):
            raise ApiError(400, f"'env_id' must be an env id string (see GET /api/catalog), got {json.dumps(env_id)}")
        options = request.get("options", {})
        if not isinstance(options, dict):
            raise ApiError(400, f"'options' must be a JSON object, got {json.dumps(options)}")
        seat = request.get("seat", 0)
        if not is_integer(seat):
            raise ApiError(400, f"'seat' must be an integer, got {json.dumps(seat)}")
        seed = request.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**31)
        if not is_integer(seed) or int(seed) < 0:
            raise ApiError(400, f"'seed' must be a non-negative integer or null, got {json.dumps(seed)}")
        opponents = request.get("opponents", "heuristic")  # as `yokai play --vs`
        if isinstance(opponents, str):
            opponents = [s.strip() for s in opponents.split(",") if s.strip()]
        if not isinstance(opponents, list) or not opponents or not all(isinstance(s, str) for s in opponents):
            raise ApiError(400, "'opponents' must be agent specs (a list, or a comma-separated string), e.g. "
                                "\"heuristic\" or [\"random\", \"ismcts:iterations=200\"]")
        try:
            from yokai_envs.registry import game_class, make_game

            game_class(env_id)  # an unknown env id is named before any option is looked at
            self._check(env_id, options, [HUMAN, *opponents])
            n = make_game(env_id, **options).num_players
            if not 0 <= int(seat) < n:
                raise ValueError(f"seat {seat} is out of range: {env_id} with these options has seats 0..{n - 1}")
            others = [s for s in range(n) if s != int(seat)]
            if len(opponents) > max(len(others), 1):
                raise ValueError(f"{len(opponents)} opponents named but there are only {len(others)} other seat(s)")
            agents = [HUMAN if s == int(seat) else opponents[others.index(s) % len(opponents)] for s in range(n)]
            session = Session.start(secrets.token_hex(6), env_id, _plain(options), int(seed), int(seat), agents)
        except (ValueError, TypeError, KeyError, FileNotFoundError) as err:
            raise ApiError(400, str(err).strip("'\"")) from None
        self.save(session, "the new game")
        with self.lock:
            self.sessions[session.game_id] = session
        return session

    def get(self, game_id: str) -> Session:
        """The game ``game_id``, loaded from its file after a restart; ApiError 404 when unknown.
        A game is read (its bots built, a model loaded) under its own lock, not the server's:
        another game's requests do not wait for it."""
        if not isinstance(game_id, str) or not GAME_ID.match(game_id):
            raise ApiError(404, f"{game_id!r} is not a game id (12 hex digits)")
        with self.lock:
            if game_id in self.sessions:
                return self.sessions[game_id]
            loading = self.loading.setdefault(game_id, threading.Lock())
        with loading:
            with self.lock:  # read while this request waited for ``loading``
                if game_id in self.sessions:
                    return self.sessions[game_id]
            try:
                session = self._load(game_id)
                with self.lock:
                    return self.sessions.setdefault(game_id, session)
            finally:
                with self.lock:
                    self.loading.pop(game_id, None)

    def _load(self, game_id: str) -> Session:
        path = self.folder / f"{game_id}.json"
        if not path.exists():
            raise ApiError(404, f"no game {game_id!r} on this server (unknown, or its file was removed "
                                f"from {self.folder}); start a new game")
        try:
            data = _saved_game(path)
            self._check(data["env_id"], data["options"], data["agents"])
            return Session.start(game_id, data["env_id"], data["options"], data["seed"], data["seat"],
                                 data["agents"], data["actions"], data["created"])
        except ApiError as err:
            raise ApiError(500, f"saved game {path} cannot be loaded: {err.message}") from None
        except (OSError, ValueError, TypeError, KeyError, IndexError, RecursionError) as err:
            raise ApiError(500, f"saved game {path} cannot be loaded: {err}") from None

    def save(self, session: Session, what: str, then: list[int] | None = None) -> None:
        """Write the game (with ``then``, the move about to be played); ApiError 507 saying that
        nothing changed when the file cannot be written (a full disk, a folder gone read-only)."""
        path = self.folder / f"{session.game_id}.json"
        tmp = path.with_name(f".{path.name}.tmp")
        try:
            tmp.write_text(json.dumps(session.saved(then)) + "\n", encoding="utf-8")
            tmp.replace(path)
        except OSError as err:
            tmp.unlink(missing_ok=True)
            raise ApiError(507, f"{what} was not saved ({path}: {err.strerror or err}), so it was not made: the "
                                "game is as it was; free some space in the state folder and send it again") from None

    def listing(self) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
        """(saved games, newest first: id, env, seat, opponents, steps so far; the files that are
        not saved games, each with why)."""
        games, skipped = [], []
        for path in sorted(self.folder.glob("*.json")):
            try:
                data = _saved_game(path)
            except (ValueError, UnicodeDecodeError, RecursionError) as err:
                skipped.append({"file": str(path), "error": str(err)})
                continue
            games.append({"game_id": data["game_id"], "env_id": data["env_id"], "seat": data["seat"],
                          "agents": data["agents"], "actions": len(data["actions"]), "created": data["created"]})
        return sorted(games, key=lambda g: g["created"], reverse=True), skipped

    # Each of these reads or moves a game under its lock, so that two tabs never interleave.
    def view(self, game_id: str) -> dict[str, Any]:
        session = self.get(game_id)
        with session.lock:
            return session.view()

    def act(self, game_id: str, body: Any) -> dict[str, Any]:
        """``{"action": id, "step": n}``: the human's move (``step`` optional: refuses a stale page)."""
        session = self.get(game_id)
        if not isinstance(body, dict) or "action" not in body:
            raise ApiError(400, "the request body must be a JSON object like {\"action\": 12, \"step\": 5}")
        unknown = sorted(set(body) - {"action", "step"})
        if unknown:
            raise ApiError(400, f"unknown field(s) {', '.join(unknown)} in a move; valid: action, step")
        with session.lock:
            action = session.checked_action(body["action"], body.get("step"))
            self.save(session, "your move", [action])
            session._step(action)
            return session.view()

    def advance(self, game_id: str, body: Any) -> dict[str, Any]:
        """``{"step": n}`` (optional): the next bot move."""
        session = self.get(game_id)
        if body is not None and not isinstance(body, dict):
            raise ApiError(400, "the request body must be empty or a JSON object like {\"step\": 5}")
        unknown = sorted(set(body or {}) - {"step"})
        if unknown:
            raise ApiError(400, f"unknown field(s) {', '.join(unknown)} in a bot move request; valid: step")
        with session.lock:
            action = session.bot_action((body or {}).get("step"))
            self.save(session, "the bot's move", [action])
            session._step(action)
            return session.view()

    def replay(self, game_id: str) -> tuple[str, dict[str, Any]]:
        """(file name, replay file) of a finished game."""
        session = self.get(game_id)
        with session.lock:
            return f"{session.env_id}-{game_id}.json", session.replay()
