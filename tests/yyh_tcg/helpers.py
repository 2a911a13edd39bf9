"""Scenario helpers: set up a position, poke cards where a test needs them, read masks by name."""

from __future__ import annotations

from yokai_envs.yyh_tcg.decisions import legal_actions_now
from yokai_envs.yyh_tcg.game import YYHGame
from yokai_envs.yyh_tcg.moves import refresh_bonus
from yokai_envs.yyh_tcg.state import Attachment, Phase, Slot

URAMESHI = "Urameshi Detectives"
TOGURO = "Toguro Brothers"


def new_game(deck0=URAMESHI, deck1=TOGURO, picks0: list[str] | None = None,
             picks1: list[str] | None = None, first: int = 0, first_turn: bool = False,
             **options) -> YYHGame:
    """A game right after the reveal, with ``first`` as the first player (seed searched).

    Unless ``first_turn``, the position is numbered as the first player's second turn (turn 3),
    which has an Attack step in every variant (the "balanced" one has none in the game's first
    turn, RULES_NOTES ruling 3); hands and Spirit stay those of the first turn (scenarios set
    what they need)."""
    for seed in range(200):
        g = YYHGame(decks=(deck0, deck1), **options)
        g.reset(seed)
        for seat, picks in ((0, picks0), (1, picks1)):
            if picks is None:
                picks = [g.pool.cards[c].name for c in g.original_decks[seat] if g.pool.cards[c].is_character][:4]
            for name in picks:
                g.step(g.table.pick(cid(g, name)))
        if g.first_player == first:
            if not first_turn:
                g.turn_number = 3
            return g
    raise AssertionError("no seed gives that first player")


def cid(g: YYHGame, name: str) -> int:
    return g.pool.card(name).id


def take(g: YYHGame, seat: int, name: str) -> int:
    """Remove one copy of ``name`` from the deck (or discard, or create it) and return its id."""
    c = cid(g, name)
    p = g.players[seat]
    for zone in (p.deck, p.discard):
        if c in zone:
            zone.remove(c)
            return c
    g.original_decks[seat] = sorted([*g.original_decks[seat], c])
    return c


def give(g: YYHGame, seat: int, *names: str) -> None:
    for name in names:
        g.players[seat].hand.append(take(g, seat, name))
    refresh(g)


def stack(g: YYHGame, seat: int, *names: str) -> None:
    """Put cards on top of the deck; the first name is drawn first."""
    for name in reversed(names):
        g.players[seat].deck.append(take(g, seat, name))
    refresh(g)


def attach(g: YYHGame, seat: int, name: str, slot: int = 0, face_up: bool | None = None) -> None:
    """Attach directly: slot 0 = fighter (face-up), 1.. = Sideline (face-down unless told)."""
    p = g.players[seat]
    target = p.fighter if slot == 0 else p.sideline[slot - 1]
    target.attached.append(Attachment(take(g, seat, name), slot == 0 if face_up is None else face_up))
    refresh(g)


def set_fighter(g: YYHGame, seat: int, name: str) -> None:
    """Replace the fighter by ``name`` (the old one goes back to the deck)."""
    p = g.players[seat]
    p.deck.append(p.fighter.char)
    p.fighter = Slot(take(g, seat, name))
    refresh_bonus(g.state, seat)
    refresh(g)


def refresh(g: YYHGame) -> None:
    """Recompute the pending decision's legal actions after a test edited the state (no forced passes)."""
    g.state.pending = legal_actions_now(g.state)
    g.invalidate_mask()


def legal_names(g: YYHGame) -> set[str]:
    return {g.action_name(a) for a in range(g.num_actions) if g.legal_action_mask()[a]}


def play(g: YYHGame, name: str) -> None:
    """Step the legal action with this name."""
    for a in range(g.num_actions):
        if g.legal_action_mask()[a] and g.action_name(a) == name:
            g.step(a)
            return
    raise AssertionError(f"{name!r} is not legal in {g.phase}; legal: {sorted(legal_names(g))}")


def done(g: YYHGame) -> None:
    g.step(g.table.DONE)


def to_main(g: YYHGame) -> None:
    if g.phase == Phase.DRAW:
        done(g)
    assert g.phase == Phase.MAIN, g.phase


#: Five characters of five different teams (no Team Bonus possible) and 40 plain cards.
NEUTRAL = {
    "M1": 1, "Rinku": 1, "Jin": 1, "Seiryu": 1, "George Saotome": 1,
    "Rose Whip": 3, "Brass Knuckles": 3, "Spirit Armor": 3, "Training with Genkai": 3, "Botan's Report": 3,
    "Ambush": 3, "Sneak Attack": 3, "Second Wind": 3, "Demon Barrier": 3, "Crowd Heckling": 3,
    "Stolen Artifacts": 3, "Shotgun Blast": 3, "Wind Cyclone": 3, "Mirror Counter": 1,
}


def neutral_game(first: int = 0, picks0: list[str] | None = None, picks1: list[str] | None = None,
                 empty_hands: bool = True, first_turn: bool = False, **options) -> YYHGame:
    """Both seats play NEUTRAL with M1 as fighter, then Rinku, Jin, Seiryu; hands emptied."""
    g = new_game(NEUTRAL, NEUTRAL, picks0, picks1, first, first_turn, **options)
    if empty_hands:
        for p in g.players:
            p.deck.extend(p.hand)
            p.hand.clear()
    refresh(g)
    return g


def clear_hand(g: YYHGame, seat: int) -> None:
    p = g.players[seat]
    p.deck.extend(p.hand)
    p.hand.clear()
    p.shown.clear()
    refresh(g)


def pass_part2(g: YYHGame) -> None:
    """Pass part 2 of the attack when it is asked (it is, whenever the hand might hold a part-2
    Event: skipping it only when a hidden card forces the pass would tell the opponent so)."""
    while g.phase == Phase.USE and not g.is_over:
        done(g)


def finish_choices(g: YYHGame) -> None:
    """Make the owed choices (a search, paying for turned-up cards) with the first legal action."""
    while g.phase in (Phase.SEARCH, Phase.PAY) and not g.is_over:
        g.step(int(next(a for a in range(g.num_actions) if g.legal_action_mask()[a])))
