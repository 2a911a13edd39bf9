"""The table's primitives every rule uses (the rules in ``rules``, the effects interpreter in
``effects``, the decisions in ``decisions``): drawing, milling, searching, turning face-down
cards up and paying for them, the Team Bonus, the game's end. Functions over ``(st, ctx)``
(``ctx``: the game's generator and record, :class:`~yokai_envs.core.context.Context`)."""

from __future__ import annotations

from yokai_envs.core.context import Context
from yokai_envs.yyh_tcg.state import Attachment, Ev, Owed, OwedChoice, Phase, State


def draw(st: State, ctx: Context, seat: int, n: int) -> None:
    """Draw ``n``; a player who must draw from an empty deck loses at once."""
    me = st.players[seat]
    for _ in range(n):
        if not me.deck:
            end_game(st, ctx, 1 - seat)
            return
        card = me.deck.pop()
        me.hand.append(card)
        if ctx.recording:  # asked first: draws are on the search's hot path
            ctx.see(seat, Ev.DREW, seat, card)
            ctx.see(1 - seat, Ev.DREW_HIDDEN, seat)


def mill(st: State, ctx: Context, seat: int, n: int) -> None:
    me = st.players[seat]
    for _ in range(min(n, len(me.deck))):
        card = me.deck.pop()
        me.discard.append(card)
        ctx.see(None, Ev.MILLED, seat, card)


def search(st: State, seat: int, card_type: str) -> None:
    """Search the deck for a card of ``card_type``: the player looks through the deck and
    chooses one (a ``search`` choice, asked even with one candidate: whether there is a
    choice depends on the hidden deck); it is shown to the opponent and goes to the hand;
    the deck is shuffled. A search that finds nothing shows nothing, but the opponent sees it
    fail: the deck holds no card of that type, and never will (it never gains a card)."""
    me = st.players[seat]
    cards = st.tables.cards
    if any(cards[cid].type == card_type for cid in me.deck):
        st.choices = (*st.choices, OwedChoice(Owed.SEARCH, seat, card_type))
    else:
        me.deck_lacks = me.deck_lacks | {card_type}


def take_searched(st: State, ctx: Context, seat: int, card: int) -> None:
    me = st.players[seat]
    me.deck.remove(card)
    me.hand.append(card)
    me.show(card)
    ctx.see(None, Ev.SEARCHED, seat, card)
    ctx.rng.shuffle(me.deck)
    ctx.see(None, Ev.SHUFFLE, seat)


def flip_attachments(st: State, ctx: Context, seat: int, indices: tuple[int, ...]) -> None:
    """Face-down cards under the slots ``indices`` (0 the fighter, i the Sideline's i-th) turn
    face-up together: each is paid for or discarded. When the Spirit covers them all or at
    most one of them (a card under a slot) can be paid, that happens at once; otherwise they
    are all turned up (shown) and the owner chooses which to pay for (a ``pay`` choice over
    every slot's cards) before any is paid."""
    down = face_down_under(st, seat, indices)
    if not down:
        return
    me = st.players[seat]
    if not pay_is_a_choice(st, me.spirit, down):
        pay_flipped(st, ctx, seat, indices)
        return
    for _, att in down:
        att.turned = True
        me.forget_shown(att.card, att.shows_before)
        if ctx.recording:  # see() is free when not recording, but not its call
            ctx.see(None, Ev.TURNED, seat, att.card)
    st.choices = (*st.choices, OwedChoice(Owed.PAY, seat, indices))


def face_down_under(st: State, seat: int, indices: tuple[int, ...]) -> list[tuple[int, Attachment]]:
    """(slot index, card) of each face-down card under those slots, slot by slot in attach order."""
    return [(index, att) for index in indices for att in st.slot_at(seat, index).attached if not att.face_up]


def pay_is_a_choice(st: State, spirit: int, down: list[tuple[int, Attachment]]) -> bool:
    """Whether paying for ``down`` is the owner's choice: the Spirit does not cover them all
    and more than one (card, slot) could be paid for first."""
    cards = st.tables.cards
    if sum(cards[att.card].cost for _, att in down) <= spirit:
        return False
    return len({(index, att.card) for index, att in down if cards[att.card].cost <= spirit}) > 1


def pay_flipped(st: State, ctx: Context, seat: int, indices: tuple[int, ...],
                first: tuple[int, int] | None = None) -> bool:
    """Pay for ``first`` (card id, slot index) if given, then for the rest slot by slot in
    attach order while the Spirit lasts, discarding what cannot be paid; stop (False) while
    a choice remains."""
    me = st.players[seat]
    cards = st.tables.cards
    if first is not None:
        card, index = first
        att = next(a for a in st.slot_at(seat, index).attached if a.card == card and not a.face_up)
        pay(st, ctx, seat, att)
    while True:
        down = face_down_under(st, seat, indices)
        if not down:
            return True
        if pay_is_a_choice(st, me.spirit, down):
            return False  # the owner chooses
        index, att = down[0]
        if cards[att.card].cost <= me.spirit:
            pay(st, ctx, seat, att)
        else:
            st.slot_at(seat, index).attached.remove(att)
            if not att.turned:
                me.forget_shown(att.card, att.shows_before)
            me.discard.append(att.card)
            if ctx.recording:
                ctx.see(None, Ev.FLIPPED, seat, att.card, 0)


def pay(st: State, ctx: Context, seat: int, att: Attachment) -> None:
    me = st.players[seat]
    if not att.turned:
        me.forget_shown(att.card, att.shows_before)
    me.spirit -= st.tables.cards[att.card].cost
    att.face_up = True
    att.turned = False
    if ctx.recording:
        ctx.see(None, Ev.FLIPPED, seat, att.card, 1)


def refresh_bonus(st: State, seat: int) -> None:
    """Team Bonus: active while 3 characters on your field share a Team Symbol."""
    me = st.players[seat]
    counts: dict[str, int] = {}
    for slot in me.slots():
        team = st.tables.cards[slot.char].team
        if team is not None:
            counts[team] = counts.get(team, 0) + 1
    me.bonus_team = next((t for t, n in counts.items() if n >= 3), None)
    me.bonus = dict(st.tables.pool.team_bonus[me.bonus_team]) if me.bonus_team else {}


def end_game(st: State, ctx: Context, winner: int) -> None:
    if st.winner is None:
        st.winner = winner
        st.phase = Phase.OVER
        st.decider = -1
        ctx.see(None, Ev.GAME_OVER, winner)
