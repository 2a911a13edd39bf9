"""``yokai play``: a human takes one seat in the terminal; bots (agent specs) take the others.

    yokai play --game yonkai_no_yokai_v1 --vs heuristic,random,ismcts:iterations=100 --seat 0 --seed 7

The human sees only ``game.render_for(seat)`` and, of the other seats' moves, only what
``game.public_action_name`` allows. Answers are read line by line from stdin, so a game can
be scripted by piping answers in. At a prompt:

    NUMBER or NAME   take that action (a unique start of a name is enough)
    ? NAME           look a card up (full text and stats)
    t                show the table again        h   help        q   quit

A decision that ends a multi-part choice (the next decision is no longer yours) asks for a
confirmation first; answering no takes you back to the start of that choice.
"""

from __future__ import annotations

import argparse
import sys
from typing import IO, Any

from yokai_envs.cli.arg_types import add_trust_pickles, non_negative_int
from yokai_envs.core.errors import MissingHookError
from yokai_envs.core.files import parse_json
from yokai_envs.core.game import Game
from yokai_envs.core.protocols import SeatText, ends_multi_part_choice, public_action_name, require, seat_text

HELP = ("type an action's number or name (a unique start of a name is enough); "
        "'? NAME' looks a card up; 't' shows the table; 'q' quits")


class Quit(Exception):
    """The human quit, or the input ended."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", required=True, help="env id, e.g. yonkai_no_yokai_v1 (see `yokai list`)")
    parser.add_argument("--env-kwargs", default="{}", metavar="JSON",
                        help='game options as a JSON object, e.g. \'{"num_players": 3}\'')
    parser.add_argument("--vs", default="heuristic", metavar="SPEC[,SPEC...]",
                        help="agent specs for the other seats, in seat order, cycled (default heuristic)")
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--seed", type=non_negative_int, default=0, help="deal seed (default 0)")
    parser.add_argument("--save-replay", default=None, metavar="PATH", help="write the game to a replay file")
    add_trust_pickles(parser)


class Terminal:
    """Line input from a stream; output through rich when it is installed (plain text otherwise).
    Nothing here knows any game."""

    def __init__(self, stdin: IO[str], stdout: IO[str]) -> None:
        self.stdin = stdin
        self.stdout = stdout
        try:
            from rich.console import Console
        except ImportError:  # rich comes with the [train] extra; the bare package prints plain text
            self.console = None
        else:
            self.console = Console(file=stdout, highlight=False, soft_wrap=False,
                                   width=None if stdout.isatty() else 110)

    def say(self, text: str, style: str | None = None, end: str = "\n") -> None:
        if self.console is None:
            print(text, end=end, file=self.stdout, flush=True)
        else:
            self.console.print(text, style=style, markup=False, end=end)

    def ask(self, prompt: str) -> str:
        self.say(prompt, style="bold", end="")
        line = self.stdin.readline()
        if not line:
            self.say("")
            raise Quit("input ended")
        if not self.stdin.isatty():  # piped answers: echo them so the transcript reads right
            self.say(line.rstrip("\n"))
        return line.strip()

    def table(self, title: str, text: str) -> None:
        if self.console is None:
            self.say(f"== {title} ==\n{text}")
            return
        from rich.panel import Panel
        from rich.text import Text

        self.console.print(Panel(Text(text), title=Text(title), title_align="left", expand=False))

    def actions(self, game: Game, legal: list[int]) -> None:
        if self.console is None:
            self.say("   ".join(f"{a:>4} {game.action_name(a)}" for a in legal))
            return
        from rich.columns import Columns
        from rich.text import Text

        items = [Text.assemble((f"{a:>4} ", "cyan"), game.action_name(a)) for a in legal]
        self.console.print(Columns(items, padding=(0, 3)))


def parse_choice(game: Game, text: str) -> tuple[int | None, str]:
    """(legal action, "") or (None, message saying what is wrong with ``text``)."""
    legal = [int(a) for a in game.legal_action_mask().nonzero()[0]]
    names = {a: game.action_name(a) for a in legal}
    try:
        number = int(text)
    except ValueError:
        number = None
    if number is not None:
        if number in names:
            return number, ""
        if 0 <= number < game.num_actions:
            return None, f"action {number} ({game.action_name(number)}) is not legal now; choose one listed"
        return None, f"there is no action {number} (actions are 0..{game.num_actions - 1}); choose one listed"
    wanted = text.lower()
    exact = [a for a, n in names.items() if n.lower() == wanted]
    if exact:
        return exact[0], ""
    starts = [a for a, n in names.items() if n.lower().startswith(wanted)]
    if len(starts) == 1:
        return starts[0], ""
    if starts:
        listed = ", ".join(f"{a} ({names[a]})" for a in starts[:6])
        return None, f"{text!r} could be {listed}{', ...' if len(starts) > 6 else ''}; type the number"
    return None, f"{text!r} is not a legal action or a command; {HELP}"


def ask_action(game: Game, seat: int, io: Terminal) -> int:
    """Ask until the human names a legal action (commands are answered in between)."""
    from yokai_envs.play.cards import lookup_text

    while True:
        text = io.ask(f"player {seat}, your choice> ")
        if not text:
            continue
        lowered = text.lower()
        if lowered in ("q", "quit", "exit"):
            raise Quit("quit")
        if lowered in ("h", "help"):
            io.say(HELP)
        elif text.startswith("?"):
            io.say(lookup_text(game.env_id, text[1:]))
        elif lowered in ("t", "table"):
            show_decision(game, seat, io)
        else:
            action, problem = parse_choice(game, text)
            if action is not None:
                return action
            io.say(problem, style="red")


def show_decision(game: Game, seat: int, io: Terminal) -> None:
    io.table(f"step {game.steps} · your decision: {game.phase_name}", seat_text(game, seat, "yokai play"))
    io.actions(game, [int(a) for a in game.legal_action_mask().nonzero()[0]])


def confirm(io: Terminal, name: str) -> bool:
    while True:
        answer = io.ask(f"'{name}' ends your choice. Confirm? [y/n] ").lower()
        if answer in ("y", "yes"):
            return True
        if answer in ("n", "no"):
            return False
        io.say("please answer y or n", style="red")


def needs_confirmation(game: Game, action: int, human: int, chain_start: int) -> bool:
    """Does ``action`` end a multi-part choice? The game says so, or else a guess: the human
    made the previous decision too (the choice has parts) and will not make the next one."""
    flagged = ends_multi_part_choice(game, action)
    if flagged is not None:
        return bool(flagged)
    if len(game.action_history) == chain_start:
        return False
    after = game.clone()
    after.step(action)
    return after.current_player != human


def play_game(game: Game, human: int, bots: dict[int, Any], labels: list[str], io: Terminal) -> None:
    """Play ``game`` (already reset) to the end; raises Quit when the human leaves."""
    from agents.base import act_in_game

    chain_start: int | None = None  # where the human's current run of consecutive decisions began
    if not game.recording:  # rebuild the game once with its record kept, rather than on every look
        game.record_information()
        game.replay(game.seed, list(game.action_history))
    shown = len(game.public_log(human))

    def tell_what_happened() -> None:
        """The lines of the human's public log after the decision itself: reveals, draws, damage."""
        nonlocal shown
        lines = game.public_log(human)
        for line in lines[shown + 1:]:
            io.say(f"  · {line}")
        shown = len(lines)

    for line in game.public_log(human):  # the deal as the human saw it
        io.say(f"  · {line}")
    while not game.is_over:
        seat = game.current_player
        if seat != human:
            chain_start = None
            action = act_in_game(bots[seat], game)
            seen = public_action_name(game, action, human)
            io.say(f"player {seat} ({labels[seat]}): {seen if seen is not None else f'decided ({game.phase_name})'}")
            game.step(action)
            tell_what_happened()
            continue
        if chain_start is None:
            chain_start = len(game.action_history)
        show_decision(game, seat, io)
        action = ask_action(game, seat, io)
        name = game.action_name(action)
        if needs_confirmation(game, action, human, chain_start) and not confirm(io, name):
            # Rewind to the start of the choice: the same seed and actions give the same state.
            game.replay(game.seed, list(game.action_history[:chain_start]))
            shown = len(game.public_log(human))
            io.say("cancelled: make this choice again from its start", style="yellow")
            continue
        io.say(f"you: {name}", style="green")
        game.step(action)
        tell_what_happened()


def _fail(message: str) -> int:
    print(f"yokai play: error: {message}", file=sys.stderr)
    return 2


def replay_target_problem(path: str) -> str | None:
    """Why a replay cannot be written to ``path``, or None (nothing is created)."""
    from pathlib import Path

    from yokai_envs.training.common.safety import check_writable_folder

    target = Path(path)
    if target.is_dir():
        return "is a folder; name the replay file, e.g. " + str(target / "game.json")
    if target.exists():
        return "already exists; name a new file (a replay is never written over another file)"
    return check_writable_folder(target.parent)


def run(args: argparse.Namespace) -> int:
    from agents import make as make_agent
    from agents.specs import trusting_pickles
    from yokai_envs.registry import make_game

    if args.save_replay:  # checked now: a game played for nothing is the loss
        problem = replay_target_problem(args.save_replay)
        if problem:
            return _fail(f"--save-replay {args.save_replay}: {problem}")
    try:
        options = parse_json(args.env_kwargs, "--env-kwargs", ValueError)
    except ValueError as err:
        return _fail(f"{err}: {args.env_kwargs!r}")
    if not isinstance(options, dict):
        return _fail(f"--env-kwargs must be a JSON object, got {args.env_kwargs!r}")
    try:
        game = make_game(args.game, **options)
        require(game, SeatText, "yokai play")  # the human sees the table through it
    except (ValueError, MissingHookError) as err:
        return _fail(str(err))
    n = game.num_players
    if not 0 <= args.seat < n:
        return _fail(f"--seat {args.seat} is out of range: {args.game} with these options has seats 0..{n - 1}")
    others = [s for s in range(n) if s != args.seat]
    specs = [s.strip() for s in args.vs.split(",") if s.strip()]
    if others and not specs:
        return _fail("--vs needs at least one agent spec (e.g. heuristic, random, ismcts:iterations=200)")
    if len(specs) > max(len(others), 1):
        return _fail(f"--vs names {len(specs)} agents but there are only {len(others)} other seat(s)")
    labels = ["human"] * n
    bots = {}
    try:
        for i, seat in enumerate(others):
            labels[seat] = specs[i % len(specs)]
            spec = trusting_pickles(labels[seat]) if args.trust_pickles else labels[seat]
            bots[seat] = make_agent(spec, args.game, options, seed=args.seed * 1000 + seat)
    except (ValueError, FileNotFoundError) as err:
        return _fail(str(err))

    io = Terminal(sys.stdin, sys.stdout)
    game.record_information()  # the human is told what it sees happen (its public log)
    game.reset(args.seed)
    io.say(f"{args.game}: you are player {args.seat}; " + ", ".join(f"player {s}: {labels[s]}" for s in others)
           + f". {HELP}.")
    status = 0
    try:
        play_game(game, args.seat, bots, labels, io)
    except Quit as why:
        io.say(f"game abandoned ({why}) after {game.steps} steps", style="yellow")
        status = 1
    if game.is_over:
        io.table("final table", seat_text(game, args.seat, "yokai play"))
        returns = game.returns()
        io.say("returns: " + ", ".join(f"player {s}{' (you)' if s == args.seat else ''}: {r:+g}"
                                       for s, r in enumerate(returns))
               + (" — truncated at the step cap" if game.is_truncated else ""), style="bold")
    if args.save_replay:
        from yokai_envs.play.replay import save_replay

        try:
            path = save_replay(args.save_replay, game, labels, source="play", human_seat=args.seat)
        except OSError as err:
            print(f"yokai play: error: cannot write the replay to {args.save_replay!r}: {err}", file=sys.stderr)
            return 2
        io.say(f"replay written to {path}")
    return status
