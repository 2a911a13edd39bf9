"""What every table must satisfy (``Game.check_invariants``; the conformance soak asks after
every step): each card in one place, the numbers in range, shown cards still hidden, no
face-down card on the fighter, and a legal action while the game runs."""

from __future__ import annotations

from yokai_envs.yyh_tcg.state import (
    DEFEAT_DAMAGE,
    MAX_SIDELINE,
    MAX_SPIRIT,
    SETUP_PICKS,
    WINS_NEEDED,
    Owed,
    Phase,
    State,
)


def check_invariants(st: State) -> None:
    """Raise AssertionError when the table breaks a rule."""
    if not st.players:
        return
    for seat, p in enumerate(st.players):
        owned = sorted(p.all_cards())
        assert owned == sorted(st.original_decks[seat]), f"seat {seat}: cards appeared or vanished"
        assert 0 <= p.spirit <= MAX_SPIRIT, f"seat {seat}: spirit {p.spirit}"
        assert 0 <= p.wins <= WINS_NEEDED
        assert len(p.sideline) <= MAX_SIDELINE
        assert p.wins == len(p.won)
        hidden = p.hidden_cards()
        for cid in p.shown:
            assert cid in hidden, f"seat {seat}: shown card {cid} is neither in the hand nor face-down"
            hidden.remove(cid)
        if p.fighter is not None:
            assert 0 <= p.fighter.damage < DEFEAT_DAMAGE
            paying = any(kind == Owed.PAY and who == seat and 0 in arg for kind, who, arg in st.choices)
            assert all(a.face_up or (paying and a.turned) for a in p.fighter.attached), \
                "face-down card on the fighter"
        if st.revealed and st.winner is None and p.fighter is None:
            assert not p.sideline and not p.fifth_placed, "an empty Arena with someone to send"
    if st.winner is None:
        assert st.pending, "no legal action while the game is running"
        if not st.revealed:
            assert st.phase == Phase.SETUP
            assert len(st.players[st.decider].slots()) < SETUP_PICKS
