"""Every subcommand under generated bad flags and files: exit code 2, one line on stderr naming
the problem, no traceback, no file written or changed. The cases are generated from each
command's flags crossed with hostile values (numbers out of range, NaN and infinity, folders
where files go, missing, empty, binary, cut-off and forged files); each case is an in-process
call of the ``yokai`` entry point, so the whole sweep takes seconds."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from tests.play.helpers import finished_yonkai
from yokai_envs.cli import main as yokai_main
from yokai_envs.play import Replay
from yokai_envs.registry import ENV_IDS, live_id

YONKAI = live_id("yonkai_no_yokai")
ONMYOJI = live_id("onmyoji")

ROOT = Path(__file__).resolve().parents[2]
QUICK = str(ROOT / "configs" / "yonkai_no_yokai" / "quick.yaml")
EVALUATE = ["evaluate", "--game", ONMYOJI, "--agents", "random", "--no-progress"]
BAD_COUNTS = ["0", "-1", "abc", "1.5", "nan", ""]
BAD_SEEDS = ["-1", "x", "1e3", ""]
BAD_SECONDS = ["0", "-1", "inf", "nan", "-inf", "abc"]
BAD_SPECS = ["heurstic", "ismcts:time=inf", "ismcts:time=nan", "ismcts:c=nan", "ismcts:iterations=0",
             "ismcts:iterations=5;iterations=6", "policy:", "random:x=1", ""]


@pytest.fixture()
def files(tmp_path: Path, monkeypatch) -> dict[str, str]:
    """Hostile files in a scratch folder (also the working directory: nothing may appear in it)."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "a_folder"
    folder.mkdir()
    (tmp_path / "empty.json").write_text("")
    (tmp_path / "binary.bin").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "list.json").write_text("[1, 2, 3]")
    replay = Replay.record(finished_yonkai(), ["random"] * 3).to_json()
    (tmp_path / "replay.json").write_text(json.dumps(replay))
    forged = {**replay, "agents": ["heuristic", "random", "random"]}
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    unhashed = {k: v for k, v in replay.items() if k != "final_state_sha256"}
    (tmp_path / "unhashed.json").write_text(json.dumps(unhashed))
    arena = tmp_path / "arena"
    arena.mkdir()
    (arena / "match.json").write_text("{cut")
    (arena / "games.jsonl").write_text('{"index": 0}\n')
    (tmp_path / "mine.txt").write_text("someone's file\n")
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "results.md").write_text("a table someone wrote\n")
    return {"dir": str(folder), "empty": str(tmp_path / "empty.json"), "binary": str(tmp_path / "binary.bin"),
            "list": str(tmp_path / "list.json"), "replay": str(tmp_path / "replay.json"),
            "forged": str(tmp_path / "forged.json"), "unhashed": str(tmp_path / "unhashed.json"),
            "arena": str(arena), "theirs": str(theirs), "missing": str(tmp_path / "missing.json"),
            "file": str(tmp_path / "mine.txt")}


def cases() -> list[tuple[str, list[str], str]]:
    """(id, argv with {file} placeholders, a word the error must hold)."""
    out: list[tuple[str, list[str], str]] = [("list-unknown-flag", ["list", "--nope"], "--nope")]
    for value in BAD_SECONDS:
        out.append((f"bench-seconds-{value}", ["bench", "--seconds", value], "--seconds"))
    out += [("bench-repeat-0", ["bench", "--repeat", "0"], "--repeat"),
            ("bench-vector-huge", ["bench", "--vector", "99999999"], "--vector"),
            ("bench-json-folder", ["bench", "--json", "{dir}"], "--json"),
            ("bench-env", ["bench", "--env", "chess"], "--env")]
    for flag, values in (("--games", [*BAD_COUNTS, "1000000000000"]), ("--seed", BAD_SEEDS),
                         ("--workers", BAD_COUNTS), ("--save-replays", ["-1", "x"])):
        for value in values:
            out.append((f"evaluate{flag}={value}", [*EVALUATE, flag, value], flag.lstrip("-")))
    for spec in BAD_SPECS:
        out.append((f"evaluate-agents={spec}", ["evaluate", "--game", ONMYOJI, "--agents", f"random,{spec}"
                                                if spec else "", "--no-progress"], "agent" if spec else "--agents"))
    out += [("evaluate-out-is-a-file", [*EVALUATE, "--out", "{file}"], "mine.txt"),
            ("evaluate-out-foreign", [*EVALUATE, "--out", "{theirs}"], "did not write"),
            ("evaluate-out-unfinished", [*EVALUATE, "--out", "{arena}"], "unfinished run"),
            ("evaluate-resume-missing", [*EVALUATE, "--out", "{missing}", "--resume"], "does not exist"),
            ("evaluate-ray-address", [*EVALUATE, "--ray-address", "auto"], "--backend ray"),
            ("evaluate-env-kwargs", [*EVALUATE, "--env-kwargs", "[1]"], "--env-kwargs"),
            ("evaluate-game", ["evaluate", "--game", "chess", "--agents", "random"], "chess")]
    for file in ("dir", "missing", "empty", "binary", "list"):
        out.append((f"train-config-{file}", ["train", "--config", "{" + file + "}", "--check"], "{" + file + "}"))
    for item, word in (("training.seed=-1", "training.seed"), ("training.seed=1e29", "training.seed"),
                       ("training.seed=100000000000000000000000000000", "training.seed"),
                       ("training.device=gpu", "training.device"), ("reward=builtins:print", "reward"),
                       ("algorithm.policy=CnnPolicy", "algorithm.policy"), ("training.n_envs=0", "training.n_envs"),
                       ("algorithm.hyperparameters.batch_size=1000000", "batch_size"),
                       ("game.options.max_cycles=-1", "max_cycles"), ("nonsense", "nonsense")):
        out.append((f"train-set-{item}", ["train", "--config", QUICK, "--set", item, "--check"], word))
    out += [("train-resume-no-out", ["train", "--resume"], "--resume"),
            ("train-resume-missing", ["train", "--resume", "--out", "{missing}"], "config.yaml")]
    for value in BAD_SEEDS:
        out.append((f"demo-seed-{value}", ["demo", "--seed", value], "--seed"))
    out += [("demo-agents", ["demo", "--agents", "heurstic"], "heurstic"),
            ("demo-env-kwargs", ["demo", "--env-kwargs", "{"], "JSON")]
    play = ["play", "--game", YONKAI]
    out += [("play-seed", [*play, "--seed", "-1"], "--seed"), ("play-seat", [*play, "--seat", "9"], "--seat"),
            ("play-save-replay-folder", [*play, "--save-replay", "{dir}"], "folder"),
            ("play-save-replay-existing", [*play, "--save-replay", "{file}"], "already exists"),
            ("play-vs", [*play, "--vs", "ismcts:c=nan"], "finite")]
    for file, word in (("dir", "folder"), ("missing", "does not exist"), ("empty", "JSON"), ("binary", "UTF-8"),
                       ("list", "not a yokai replay"), ("forged", "agents list"), ("unhashed", "sha256")):
        out.append((f"replay-{file}", ["replay", "{" + file + "}", "--all"], word))
    out += [("replay-html-over-itself", ["replay", "{replay}", "--html", "{replay}"], "itself"),
            ("replay-html-folder", ["replay", "{replay}", "--html", "{dir}"], "folder"),
            ("replay-seat", ["replay", "{replay}", "--seat", "7"], "--seat")]
    for file, word in (("missing", "does not exist"), ("dir", "neither"), ("empty", "JSON"), ("binary", "UTF-8"),
                       ("forged", "agents list"), ("unhashed", "sha256"), ("arena", "match.json")):
        out.append((f"export-{file}", ["export", "--from", "{" + file + "}", "--out", "out.jsonl"], word))
    out += [("export-out-suffix", ["export", "--from", "{replay}", "--out", "out.csv"], ".jsonl"),
            ("export-out-folder", ["export", "--from", "{replay}", "--out", "{dir}"], "folder"),
            ("exploit-agent", ["exploit", "--agent", "heurstic", "--game", ONMYOJI], "heurstic"),
            ("exploit-game", ["exploit", "--agent", "random", "--game", "chess"], "chess"),
            ("balance-choices-empty", ["balance", "--game", ONMYOJI, "--agents", "random", "--choices", ""],
             "choices"),
            ("balance-games", ["balance", "--game", ONMYOJI, "--agents", "random", "--games", "x"], "--games"),
            ("serve-port-range", ["serve", "--port", "70000"], "--port"),
            ("serve-port-text", ["serve", "--port", "http"], "--port"),
            ("serve-state-dir-file", ["serve", "--port", "0", "--state-dir", "{file}"], "--state-dir"),
            ("score-agent", ["score", "--agent", "heurstic", "--quick"], "heurstic"),
            ("score-agent-import", ["score", "--agent", "no_such_module_zz:Bot", "--quick"], "no_such_module_zz"),
            ("score-configs", ["score", "--agent", "random", "--quick", "--configs", "chess"], "chess"),
            ("score-suite", ["score", "--agent", "random", "--suite", "v9"], "v9"),
            ("score-workers", ["score", "--agent", "random", "--quick", "--workers", "0"], "--workers"),
            ("score-resume-no-out", ["score", "--agent", "random", "--quick", "--resume"], "--resume"),
            ("score-leaderboard-runs", ["score", "--leaderboard", "page.md", "--runs", "{missing}"], "not a folder"),
            ("unknown-command", ["chess"], "chess")]
    return out


CASES = cases()


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"<dir>")
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize(("argv", "word"), [(argv, word) for _, argv, word in CASES], ids=[c[0] for c in CASES])
def test_every_command_refuses_bad_input_in_one_line_and_writes_nothing(files, capsys, argv, word):
    argv = [part.format(**files) if "{" in part and part != "{" else part for part in argv]
    word = word.format(**files) if word.startswith("{") else word
    scratch = Path.cwd()
    before = _tree(scratch)
    try:
        code = yokai_main(argv)
    except SystemExit as stop:  # argparse
        code = stop.code
    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert code == 2, (code, captured.err)
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err and word in lines[0], lines[0]
    assert _tree(scratch) == before


def test_the_sweep_covers_every_command():
    from yokai_envs.cli import COMMANDS

    covered = {argv[0] for _, argv, _ in CASES}
    assert set(COMMANDS) <= covered
    assert len(CASES) == len({c[0] for c in CASES})  # ids unique
    assert len(list(itertools.chain(CASES))) < 200  # bounded: the sweep stays a few seconds


# ---------------------------------------------------------------------- yokai serve's routes
SERVER_PATHS = ["/", "/games/{game}", "/games/nope", "/api/catalog", "/api/games", "/api/games/{game}",
                "/api/games/{game}/action", "/api/games/{game}/next", "/api/games/{game}/replay", "/api/nope",
                "/api/games/..%2f..%2fetc", "/api/games/{game}/action?token=x", "//api/games", "/api/games/{game}/"]
SERVER_METHODS = ["GET"] * 4 + ["POST"] * 8 + ["PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "FOO"]
HOSTILE_SPECS = ["policy:{fifo}", "policy:/dev/zero", "trained:{fifo}", "ismcts:iterations=1000000000",
                 "ismcts:time=1e9", "ismcts:iterations=5;policy=/dev/zero", "rllib:/tmp", "heurstic", "random",
                 "pretrained:search=true;iterations=99999", "random,random,random", ""]
HOSTILE_VALUES: list[object] = [
    None, True, -1, 2**64, 1.5, "", "x" * 300, [], {}, [[[[]]]], "policy:{fifo}", "policy:/dev/zero",
    "trained:{fifo}", "ismcts:iterations=1000000000", "ismcts:time=1e9", "rllib:/tmp", "heurstic", "{fifo}",
    "/dev/zero", {"cards": "/dev/zero"}, {"decks": ["{fifo}", "random"]}, {"num_players": 10**9}, "random",
    ONMYOJI, "<script>", "\u2028",
]
HOSTILE_BODIES = [b"", b"{", b"[" * 5000, b'{"a": 1, "a": 2}', b'{"seed": ' + b"9" * 5000 + b"}", b"NaN",
                  b"\xff\xfe\x00", b'{"action": 1e999}', b"null", b"[1, 2, 3]"]


def _server_case(rng, game: str, fifo: str, token: str, port: int) -> tuple[str, bytes]:
    """(a label, the raw bytes of one request): a route, a method, headers with or without what
    the server asks (token, JSON, its own Host and Origin) and a hostile or random body."""
    fill = lambda text: text.replace("{game}", game).replace("{fifo}", fifo)  # noqa: E731
    method = SERVER_METHODS[int(rng.integers(len(SERVER_METHODS)))]
    path = fill(SERVER_PATHS[int(rng.integers(len(SERVER_PATHS)))])
    headers = {"Host": f"127.0.0.1:{port}", "X-Yokai-Token": token, "Content-Type": "application/json"}
    for name, bad in (("Host", "evil.example"), ("X-Yokai-Token", "guess"), ("Content-Type", "text/plain"),
                      ("Origin", "http://evil.example")):
        if rng.random() < 0.06:
            headers[name] = bad
    pick = lambda items: items[int(rng.integers(len(items)))]  # noqa: E731
    kind = rng.random()
    if kind < 0.3:
        body = pick(HOSTILE_BODIES)
    elif kind < 0.65:  # a new game that names something it may not
        path = "/api/games" if rng.random() < 0.8 else path
        request = {"env_id": pick([*ENV_IDS, "chess"]), "opponents": pick(HOSTILE_SPECS)}
        if rng.random() < 0.6:
            request["options"] = pick(HOSTILE_VALUES)
        if rng.random() < 0.3:
            request[pick(["seat", "seed"])] = pick(HOSTILE_VALUES)
        body = json.dumps(request).replace("{fifo}", fifo).encode()
    else:
        fields = ["env_id", "options", "seat", "opponents", "seed", "action", "step", "x"]
        tree = {fields[int(k)]: HOSTILE_VALUES[int(rng.integers(len(HOSTILE_VALUES)))]
                for k in rng.choice(len(fields), size=int(rng.integers(1, 4)), replace=False)}
        if rng.random() < 0.5:
            tree["env_id"] = ONMYOJI
        body = json.dumps(tree).replace("{fifo}", fifo).encode()
    framing = f"Content-Length: {len(body)}"
    if rng.random() < 0.1:
        framing = ["Transfer-Encoding: chunked", "Content-Length: 99999999", "Content-Length: -1",
                   f"Content-Length: {len(body) + 5}"][int(rng.integers(4))]
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    return f"{method} {path} {framing}", f"{method} {path} HTTP/1.1\r\n{head}{framing}\r\n\r\n".encode() + body


def test_every_server_route_answers_hostile_requests_in_json_and_keeps_serving(files, capsys):
    """Generated requests (seeded, 240 of them, each on its own loopback connection with a time
    limit) into a ``yokai serve`` on a free port: every one is answered, nothing is a 500, an
    error is JSON, no traceback is printed, no file outside the state folder appears, and the
    game on the server stays the game its file holds."""
    import os
    import socket

    import numpy as np

    from tests.play.serve_client import call, create, running_server

    fifo = str(Path(files["dir"]) / "fifo")
    os.mkfifo(fifo)
    scratch = Path.cwd()
    with running_server(scratch / "state") as server:
        game = create(server, env_id=ONMYOJI, seat=0, opponents="random", seed=3)["game_id"]
        before = {p for p in _tree(scratch) if not p.startswith("state")}
        rng = np.random.default_rng(20261206)
        for _ in range(240):
            label, data = _server_case(rng, game, fifo, server.token, server.port)
            with socket.create_connection(("127.0.0.1", server.port), timeout=20) as conn:
                conn.sendall(data)
                conn.shutdown(socket.SHUT_WR)  # a body shorter than its Content-Length ends here
                answer = b""
                while chunk := conn.recv(65536):
                    answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.") else 0
            assert 200 <= status < 500 or status == 501, (label, answer[:300])  # 501: a method no server knows
            if status >= 400 and not label.startswith("HEAD"):
                if b"text/html" in head:  # a refused page is a page that says why
                    assert b'id="error"' in body, (label, body[:300])
                else:
                    assert json.loads(body)["status"] == status, (label, body[:300])
        assert call(server, "GET", "/api/catalog")[0] == 200
        session = server.store.get(game)
        saved = json.loads((server.store.folder / f"{game}.json").read_text())
        assert saved["actions"] == [int(a) for a in session.game.action_history]
    assert "Traceback" not in capsys.readouterr().err
    assert {p for p in _tree(scratch) if not p.startswith("state")} == before
