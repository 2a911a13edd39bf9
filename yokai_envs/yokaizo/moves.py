"""The primitive card moves every YOKAIZO rule uses, as functions over ``(state, ctx)``: they keep
the zones, the per-card flags and the public knowledge consistent, and say who sees what."""

from __future__ import annotations

from yokai_envs.core.context import Context
from yokai_envs.yokaizo.knowledge import forget_one, gain, lose
from yokai_envs.yokaizo.state import (
    BIG_TIER,
    CARDS_PER_SEAT,
    EV_BURNED,
    EV_DREW,
    EV_LIMBO_TO_DECK,
    EV_SHUFFLED,
    EV_TO_HAND,
    EV_TO_LIMBO,
    EV_TO_VOID,
    EV_TOKEN,
    NO,
    RS_TURNS,
    WIN_SOULS,
    EndCause,
    State,
)


def see_card(s: State, ctx: Context, kind: int, owner: int, *args: int) -> None:
    """``kind`` seen by both seats, the last argument (a card) only by its ``owner``."""
    if not ctx.recording:  # free
        return
    *head, c = args
    ctx.see(owner, kind, owner, *head, s.ctype[c])
    ctx.see(1 - owner, kind, owner, *head, s.unseen)


def refill_deck(s: State, ctx: Context, p: int) -> bool:
    """An empty deck takes the shuffled Limbo as its new deck: as soon as the deck empties, or
    when a card is needed from a deck that emptied while the Limbo was empty (R3)."""
    if s.deck[p]:
        return True
    if not s.limbo[p]:
        return False
    s.deck[p] = s.limbo[p]
    s.limbo[p] = []
    known: dict[int, int] = {}
    for c in s.deck[p]:  # the Limbo was face up: everyone knows the new deck
        t = s.ctype[c]
        known[t] = known.get(t, 0) + 1
    s.pub_deck[p] = dict(known)
    s.deck_bound[p] = known
    ctx.rng.shuffle(s.deck[p])
    s.known_top[p] = NO
    ctx.see(None, EV_LIMBO_TO_DECK, p)
    return True


def take_top(s: State, ctx: Context, p: int, public: bool = False) -> int:
    """The top card of seat ``p``'s deck (refilled from Limbo when empty), or NO. ``public``:
    it goes where everyone sees it; a top card everyone knew stays known (``top_was_known``),
    and whoever moves it says who sees it."""
    if not refill_deck(s, ctx, p):
        return NO
    deck = s.deck[p]
    c = deck.pop()
    s.top_was_known = s.known_top[p] == c
    if s.top_was_known:
        s.known_top[p] = NO
    if public or s.top_was_known:
        t = s.ctype[c]
        lose(s.pub_deck[p], t)
        bound = s.deck_bound[p]
        if bound is not None:
            lose(bound, t)
    else:
        forget_one(s.pub_deck[p])
    if not deck and s.limbo[p]:  # the deck just emptied: the Limbo is its new deck at once (R3)
        refill_deck(s, ctx, p)
    return c


def shuffle_deck(s: State, ctx: Context, p: int) -> None:
    ctx.rng.shuffle(s.deck[p])
    s.known_top[p] = NO
    if ctx.recording:  # (asked first on the per-step paths: a call to see costs more)
        ctx.see(None, EV_SHUFFLED, p)


def draw(s: State, ctx: Context, p: int, n: int) -> None:
    hand = s.hand[p]
    for _ in range(n):
        c = take_top(s, ctx, p)
        if c == NO:
            return
        hand.append(c)
        if s.top_was_known:
            gain(s.pub_hand[p], s.ctype[c])
            ctx.see(None, EV_DREW, p, s.ctype[c])
        elif ctx.recording:  # see_card, asked only when recording (draws are hot)
            see_card(s, ctx, EV_DREW, p, c)


def hand_out(s: State, p: int, c: int, public: bool) -> None:
    """Bookkeeping for card ``c`` leaving seat ``p``'s hand, seen by everyone or not."""
    if public:
        lose(s.pub_hand[p], s.ctype[c])
    else:
        forget_one(s.pub_hand[p])


def to_hand(s: State, ctx: Context, p: int, c: int) -> None:
    """A card everyone saw goes to its owner's hand (Return, Swap, Haunt)."""
    s.hand[p].append(c)
    gain(s.pub_hand[p], s.ctype[c])
    ctx.see(None, EV_TO_HAND, p, s.ctype[c])


def take_from_hand(s: State, p: int, ctype: int, to_field: bool) -> int:
    """Remove one card of type ``ctype`` from seat ``p``'s hand. Copies differ only in whether
    they took a Turn this Round (R12): one entering the Field is a copy that has not, if any
    (its owner would choose it); one going elsewhere is a copy that has, if any (keeping the
    fresh one in hand)."""
    hand, types, turn_round, rnd = s.hand[p], s.ctype, s.turn_round, s.round
    fallback = NO
    for i in range(len(hand) - 1, -1, -1):
        c = hand[i]
        if types[c] == ctype:
            if (turn_round[c] == rnd) != to_field:
                return hand.pop(i)
            if fallback == NO:
                fallback = i
    if fallback == NO:
        raise AssertionError(f"no card of type {ctype} in hand")
    return hand.pop(fallback)


def take_from(s: State, zone: list[int], ctype: int) -> int:
    """Remove one card of type ``ctype`` from ``zone`` (copies are interchangeable)."""
    types = s.ctype
    for i in range(len(zone) - 1, -1, -1):
        if types[zone[i]] == ctype:
            return zone.pop(i)
    raise AssertionError(f"no card of type {ctype} in zone")


def to_limbo(s: State, ctx: Context, c: int) -> None:
    """Destroy: send a card to its owner's Limbo, clearing every rotation."""
    s.up[c] = s.blighted[c] = s.frozen[c] = s.facedown[c] = s.shown[c] = 0
    p = c // CARDS_PER_SEAT
    s.limbo[p].append(c)
    if ctx.recording:
        ctx.see(None, EV_TO_LIMBO, p, s.ctype[c])


def to_void(s: State, ctx: Context, p: int, c: int, face_down: bool = False, seen: bool = False) -> None:
    """Card ``c`` enters seat ``p``'s Void (``face_down``: a Token, which only its owner sees
    unless everyone ``seen`` it as the known top card)."""
    s.up[c] = s.blighted[c] = s.frozen[c] = 0
    s.facedown[c] = 1 if face_down else 0
    s.shown[c] = 1 if face_down and seen else 0
    s.void[p].append(c)
    if face_down and not seen:
        see_card(s, ctx, EV_TOKEN, p, c)
    elif face_down:
        ctx.see(None, EV_TOKEN, p, s.ctype[c])
    elif ctx.recording:
        ctx.see(None, EV_TO_VOID, p, s.ctype[c])


def burn_card(s: State, ctx: Context, c: int, seen: bool, by: int) -> None:
    """Burn: the card goes face-down to the Grave of the seat ``by`` whose effect Burned it,
    1 Soul there (R14); ``seen``: everyone saw which card it was. An enemy card Burned into
    your Grave is known to both: its owner knew it, and you may look at your face-down cards
    (``pub_burned`` counts only the Grave owner's own cards, the hidden ones)."""
    s.up[c] = s.blighted[c] = s.frozen[c] = s.facedown[c] = s.shown[c] = 0
    s.burned[by].append(c)
    if c // CARDS_PER_SEAT != by:
        ctx.see(None, EV_BURNED, by, s.ctype[c])
    elif seen:
        gain(s.pub_burned[by], s.ctype[c])
        ctx.see(None, EV_BURNED, by, s.ctype[c])
    else:
        see_card(s, ctx, EV_BURNED, by, c)
    check_win(s, EndCause.OWN_BURN)


def enter_field(s: State, p: int, slot: int, c: int) -> None:
    s.field[p][slot] = c
    s.slowed[c] = s.shown[c] = 0
    # turn_round stays with the card: one that took its Turn this Round takes no other (R12)
    s.enter_round[c] = s.round
    s.enter_tier[c] = s.tier if s.round_stage == RS_TURNS else BIG_TIER


def check_win(s: State, cause: EndCause) -> None:
    """The first Grave to hold 13 Souls loses (R2); ``cause``: how the card that just entered
    a Grave got there."""
    if s.winner != NO:
        return
    for p in (0, 1):
        if s.grave_souls(p) >= WIN_SOULS:
            s.winner = 1 - p
            s.end_cause = cause
            return
