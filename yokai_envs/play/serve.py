"""The games behind ``yokai serve``: one human seat per game, bots in the others, saved to disk.

A :class:`Store` holds the games of one server by id. Each game is a :class:`Session`: the
Game itself (recording what every seat sees), the bots, and what the human saw of every move.
After every change the session is written to ``STATE_DIR/games/<id>.json`` as its env id,
options, seed, seats and actions (a game is fully determined by those), so a new Store on the
same folder continues every saved game. The HTTP layer (:mod:`yokai_envs.play.cli_serve`) only
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
HUMAN = "human"
# Suggestions for the opponents field; any agent spec works (the field is free text).
SPEC_EXAMPLES = ("random", "heuristic", "ismcts:iterations=200;rollout=heuristic", "trained:PATH/model.zip")


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
def _options_of(env_id: str) -> dict[str, dict[str, Any]]:
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

    extra = [kind for kind in KINDS if kind not in ("random", "heuristic", "ismcts", "trained", "policy", "rllib")]
    from yokai_envs.play.about import player_counts

    return {"games": [{"env_id": env_id, "options": _options_of(env_id), "players": player_counts(env_id)}
                      for env_id in ENV_IDS],
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
            if game.is_over or not game.legal_action_mask()[action]:
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

    def act(self, action: Any, step: Any = None) -> None:
        """The human's ``action``; ApiError (and no change) unless it is legal now."""
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
        self._step(action)

    def advance(self, step: Any = None) -> None:
        """One bot move (the bot to act decides); ApiError when it is the human's turn or over."""
        from agents.base import act_in_game

        self._check_step(step)
        if self.game.is_over:
            raise ApiError(409, "the game is over: no bot is to move")
        if self.game.current_player == self.seat:
            raise ApiError(409, "it is your turn: choose an action")
        self._step(act_in_game(self.bots[self.game.current_player], self.game))

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
        if over:
            from yokai_envs.play.replay import game_result

            view["result"] = game_result(game)
            view["seed"] = str(self.seed)
            view["replay_url"] = f"/api/games/{self.game_id}/replay"
        return view

    def replay(self) -> dict[str, Any]:
        """The replay file of the finished game (the format ``yokai replay`` reads)."""
        from yokai_envs.play.replay import Replay

        if not self.game.is_over:
            raise ApiError(409, "the replay is available once the game is over (it holds the seed, which "
                                "would show every hidden card)")
        return Replay.record(self.game, self.agents, source="serve", human_seat=self.seat,
                             game_id=self.game_id).to_json()

    def saved(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "version": 1, "game_id": self.game_id, "env_id": self.env_id,
                "options": self.options, "seed": self.seed, "seat": self.seat, "agents": self.agents,
                "actions": [int(a) for a in self.game.action_history], "created": self.created}


# ---------------------------------------------------------------------- every game of a server
class Store:
    """The server's games by id; each change is written to ``state_dir/games/<id>.json``."""

    def __init__(self, state_dir: str | Path) -> None:
        self.folder = Path(state_dir) / "games"
        self.folder.mkdir(parents=True, exist_ok=True)
        self.sessions: dict[str, Session] = {}
        self.lock = threading.Lock()

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
            from yokai_envs.registry import make_game

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
        with self.lock:
            self.sessions[session.game_id] = session
        self.save(session)
        return session

    def get(self, game_id: str) -> Session:
        """The game ``game_id``, loaded from its file after a restart; ApiError 404 when unknown."""
        if not isinstance(game_id, str) or not GAME_ID.match(game_id):
            raise ApiError(404, f"{game_id!r} is not a game id (12 hex digits)")
        with self.lock:
            if game_id in self.sessions:
                return self.sessions[game_id]
            path = self.folder / f"{game_id}.json"
            if not path.is_file():
                raise ApiError(404, f"no game {game_id!r} on this server (unknown, or its file was removed "
                                    f"from {self.folder}); start a new game")
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
                    raise ValueError("not a saved yokai serve game")
                session = Session.start(game_id, data["env_id"], data["options"], data["seed"], data["seat"],
                                        data["agents"], data["actions"], data.get("created", ""))
            except (OSError, ValueError, TypeError, KeyError, IndexError) as err:
                raise ApiError(500, f"saved game {path} cannot be loaded: {err}") from None
            self.sessions[game_id] = session
            return session

    def save(self, session: Session) -> None:
        path = self.folder / f"{session.game_id}.json"
        tmp = path.with_name(f".{path.name}.tmp")
        tmp.write_text(json.dumps(session.saved()) + "\n", encoding="utf-8")
        tmp.replace(path)

    def listing(self) -> list[dict[str, Any]]:
        """Saved games, newest first (id, env, seat, opponents, steps so far)."""
        out = []
        for path in self.folder.glob("*.json"):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                out.append({"game_id": data["game_id"], "env_id": data["env_id"], "seat": data["seat"],
                            "agents": data["agents"], "actions": len(data["actions"]),
                            "created": data.get("created", "")})
            except (OSError, ValueError, TypeError, KeyError):
                continue
        return sorted(out, key=lambda g: g["created"], reverse=True)

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
        with session.lock:
            session.act(body["action"], body.get("step"))
            self.save(session)
            return session.view()

    def advance(self, game_id: str, body: Any) -> dict[str, Any]:
        """``{"step": n}`` (optional): the next bot move."""
        session = self.get(game_id)
        if body is not None and not isinstance(body, dict):
            raise ApiError(400, "the request body must be empty or a JSON object like {\"step\": 5}")
        with session.lock:
            session.advance((body or {}).get("step"))
            self.save(session)
            return session.view()

    def replay(self, game_id: str) -> tuple[str, dict[str, Any]]:
        """(file name, replay file) of a finished game."""
        session = self.get(game_id)
        with session.lock:
            return f"{session.env_id}-{game_id}.json", session.replay()
