"""Test helpers for YOKAIZO: scripted positions (build a table card by card, start a rule task,
act by action name) and small readers of the table."""

from __future__ import annotations

from yokai_envs.yokaizo import moves
from yokai_envs.yokaizo.cards import default_pool
from yokai_envs.yokaizo.game import YokaizoGame
from yokai_envs.yokaizo.rules import NextTurn, advance
from yokai_envs.yokaizo.state import BIG_TIER, FIRST_CARD_ACTION, NO, EffectZone, RoundStage, State, Task

POOL = default_pool()
FILLER = "Oni Brute"


def blank(names0: list[str] = (), names1: list[str] = (), filler: str = FILLER,
          filler1: str | None = None) -> YokaizoGame:
    """A game whose seat decks hold the named cards (plus filler to 40), every card in its deck,
    nothing dealt, setup over, Round 1 about to pick its first tier."""
    g = YokaizoGame(decks=("Kitsune Blaze", "Kappa Tide"))
    g.reset(0)
    types = []
    for names, fill in ((names0, filler), (names1, filler1 or filler)):
        t = [POOL.by_name[n] for n in names]
        t += [POOL.by_name[fill]] * (40 - len(t))
        types.append(tuple(t))
    g.state = State(POOL.cards, (types[0], types[1]))
    for p in (0, 1):
        g.rng.shuffle(g.deck[p])  # as a deal does (the generator goes on as it would)
    for p in (0, 1):
        g.deck[p].sort(reverse=True)  # deterministic: named cards end up on top, in the order given
    g.hidden_setup = False
    g.round, g.round_stage, g.tier = 1, RoundStage.TURNS, BIG_TIER
    g.stack = [NextTurn()]
    return g


def card(g: YokaizoGame, p: int, name: str) -> int:
    """Take a card of that name owned by seat p out of its deck."""
    t = POOL.by_name[name]
    for c in reversed(g.deck[p]):
        if g.ctype[c] == t:
            g.deck[p].remove(c)
            return c
    # none left: turn the deck's bottom card into one (tests only; decks need not be legal here)
    c = g.deck[p].pop(0)
    card_ = POOL.cards[t]
    g.ctype[c], g.c_speed[c], g.c_souls[c], g.c_elem[c] = t, card_.speed, card_.souls, card_.element
    g.c_action[c] = FIRST_CARD_ACTION + t
    return c


def field(g: YokaizoGame, p: int, s: int, name: str, up: int = 0, down: int = 0, soul: str = FILLER) -> int:
    """Put a Yokai in a Field slot with ``up`` face-up and ``down`` face-down Souls of ``soul``."""
    y = card(g, p, name)
    moves.enter_field(g.state, p, s, y)
    g.enter_round[y] = 0
    for i in range(up + down):
        c = card(g, p, soul)
        g.souls[p][s].append(c)
        g.up[c] = 1 if i < up else 0
    return y


def hand(g: YokaizoGame, p: int, *names: str) -> list[int]:
    out = [card(g, p, n) for n in names]
    g.hand[p].extend(out)
    return out


def void(g: YokaizoGame, p: int, *names: str) -> list[int]:
    out = [card(g, p, n) for n in names]
    for c in out:
        moves.to_void(g.state, g.rules_context(), p, c)
    return out


class Halt(Task):
    """A bottom task that stops the game flow (phase "halt", only pass legal) after the tasks resolve."""

    __slots__ = ()
    phase = "halt"

    def run(self, st, ctx):
        return [0]


def start(g: YokaizoGame, *tasks, halt: bool = False) -> YokaizoGame:
    """Resolve from these tasks (the last one is on top) and stop at the first decision; with
    ``halt`` the match flow does not go on after them."""
    g.stack = [Halt() if halt else NextTurn(), *tasks]
    g.invalidate_mask()
    advance(g.state, g.rules_context())
    return g


def legal(g: YokaizoGame) -> set[str]:
    return {g.action_name(a) for a in range(g.num_actions) if g.legal_action_mask()[a]}


def act(g: YokaizoGame, *names: str) -> YokaizoGame:
    index = {g.action_name(a): a for a in range(g.num_actions)}
    for n in names:
        g.step(index[n])
    return g


def slot_souls(g: YokaizoGame, p: int, s: int) -> tuple[int, int]:
    """(face-up, face-down) Souls on a Field slot."""
    up = g.face_up_souls(p, s)
    return up, len(g.souls[p][s]) - up


def name_of(g: YokaizoGame, c: int) -> str:
    return POOL.cards[g.ctype[c]].name


__all__ = ["NO", "act", "blank", "card", "effect", "field", "hand", "legal", "name_of", "slot_souls", "start", "void"]


def effect(g: YokaizoGame, ctl: int, text: str, src: int | None = None):
    """An Effect task from YAML text like ``"[{blight: 2}]"`` for seat ``ctl`` (source: a Field Yokai)."""
    import yaml

    from yokai_envs.yokaizo.cards import parse_ops
    from yokai_envs.yokaizo.effects import Effect

    ops = parse_ops("test", "effect", yaml.safe_load(text), POOL.factions)
    if src is None:
        src = g.field[ctl][0]
    return Effect(ops, ctl, src, EffectZone.NONE, g.banish_count)
