"""``yokai replay FILE``: step through a replay file.

    yokai replay game.json                  # omniscient view, Enter = next step
    yokai replay game.json --seat 1         # only what player 1 saw
    yokai replay game.json --all            # print every step, no prompts
    yokai replay game.json --html game.html # one self-contained page (every view; --seat N: that seat only)

At the prompt: Enter or n = next, b = back, a number = jump to that step, q = quit.
The file is checked first: its env id and version must be registered here, its actions legal,
and the rebuilt final state must match the one recorded.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from yokai_envs.core.errors import MissingHookError
from yokai_envs.core.game import Game
from yokai_envs.core.protocols import SeatText, render_text, require, seat_text
from yokai_envs.play.replay import Replay, ReplayError, Step, game_result, load_replay


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="replay file (JSON) written by yokai play / evaluate --save-replays")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, default=None, help="show only what this seat saw")
    who.add_argument("--omniscient", action="store_true", help="show everything (the default)")
    parser.add_argument("--all", action="store_true", help="print every step without waiting for Enter")
    parser.add_argument("--html", default=None, metavar="OUT.html",
                        help="write a self-contained HTML viewer instead (every seat's view and the omniscient "
                             "one; with --seat N only that seat's)")


def _fail(message: str) -> int:
    print(f"yokai replay: error: {message}", file=sys.stderr)
    return 2


def frame(replay: Replay, step: Step, seat: int | None, total: int) -> tuple[str, str]:
    """(header, table text) of one step as ``seat`` (None: omniscient) saw it."""
    game = step.game
    if step.actor is None:
        header = f"step 0/{total}: the deal (seed {replay.seed})"
    else:
        seen = step.seen.get(seat)
        did = seen if seen is not None else "made a choice you cannot see"
        header = f"step {step.index}/{total}: player {step.actor} ({replay.agents[step.actor]}): {did}"
    if seat is not None:
        # what else this seat saw happen (the first line is the decision, already in the header)
        extra = step.log.get(seat, [])[0 if step.actor is None else 1:]
        header += "".join(f"\n  · {line}" for line in extra)
    text = render_text(game) if seat is None else seat_text(game, seat, "yokai replay --seat")
    return header, text


def result_line(replay: Replay, game: Game | None = None) -> str:
    """The end of the game: the rebuilt ``game``'s result (a replay's stated result is only
    used when no game is given; replaying refuses a file whose stated result differs)."""
    result = game_result(game) if game is not None else replay.result
    returns = result.get("returns") or []
    status = "finished" if result.get("terminal") else ("truncated" if result.get("truncated") else "unfinished")
    return f"{status}; returns: " + ", ".join(f"player {s} ({replay.agents[s]}): {r:+g}" for s, r in enumerate(returns))


def _same_file(one: str, two: str) -> bool:
    try:
        return Path(one).resolve() == Path(two).resolve() or Path(one).samefile(two)
    except OSError:
        return False


def run(args: argparse.Namespace) -> int:
    if args.html and _same_file(args.file, args.html):  # the page would replace the replay it shows
        return _fail(f"--html {args.html} is the replay file itself: name another file for the page")
    if args.html and Path(args.html).is_dir():
        return _fail(f"--html {args.html} is a folder: name the page's file, e.g. {Path(args.html) / 'game.html'}")
    try:
        replay = load_replay(args.file)
        probe = replay.new_game()
    except ReplayError as err:
        return _fail(str(err))
    if not replay.agents_checked:
        print(f"yokai replay: note: {args.file} is a format version {replay.format_version} replay: its hash "
              "does not cover the agents list, so who played each seat is unchecked", file=sys.stderr)
    n = probe.num_players
    if args.seat is not None and not 0 <= args.seat < n:
        return _fail(f"--seat {args.seat} is out of range: this {replay.env_id} game has seats 0..{n - 1}")
    if args.seat is not None and not args.html:
        try:
            require(probe, SeatText, "yokai replay --seat")
        except MissingHookError as err:
            return _fail(str(err))
    try:
        if args.html:
            from yokai_envs.play.html import write_html

            seats = None if args.seat is None else [args.seat]
            page = write_html(replay, seats=seats)
            out = Path(args.html)
            try:
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_text(page, encoding="utf-8")
            except OSError as err:
                return _fail(f"cannot write {str(out)!r}: {err}")
            print(f"wrote {out} ({len(replay.actions) + 1} steps, {out.stat().st_size // 1024} KiB)")
            _unsigned_note(replay, args.file)
            return 0
        total = len(replay.actions)
        frames = []
        final: Game | None = None
        for step in replay.steps():  # every frame first: the file is checked whole before any is shown
            frames.append(frame(replay, step, args.seat, total))
            final = step.game
    except ReplayError as err:
        return _fail(str(err))
    _unsigned_note(replay, args.file)
    return _show(frames, replay, interactive=not args.all, final=final)


def _unsigned_note(replay: Replay, file: str) -> None:
    """What a replay without a signature this user can check leaves unproven (said once it replayed)."""
    if not replay.verified:
        print(f"yokai replay: note: {file} is not signed with your key: its moves and result are checked "
              "against the rebuilt game, but who played each seat is only what the file says", file=sys.stderr)


def _show(frames: list[tuple[str, str]], replay: Replay, interactive: bool, final: Game | None = None) -> int:
    from yokai_envs.cli.play import Terminal

    io = Terminal(sys.stdin, sys.stdout)
    last = len(frames) - 1
    index = 0
    while True:
        header, text = frames[index]
        io.table(header, text)
        if index == last:
            io.say(result_line(replay, final))
        if not interactive:
            if index == last:
                return 0
            index += 1
            continue
        io.say("[Enter] next · b back · NUMBER jump · q quit> ", end="")
        line = sys.stdin.readline()
        if not line:
            io.say("")
            return 0
        answer = line.strip().lower()
        if answer in ("q", "quit"):
            return 0
        if answer in ("", "n", "next"):
            if index == last:
                return 0
            index += 1
        elif answer in ("b", "back"):
            index = max(0, index - 1)
        elif answer.isdigit() and int(answer) <= last:
            index = int(answer)
        else:
            io.say(f"{answer!r}: press Enter for the next step, b to go back, 0..{last} to jump, q to quit",
                   style="red")
