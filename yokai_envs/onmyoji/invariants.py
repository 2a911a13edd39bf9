"""The invariants of an Onmyoji table (checked after every step of the conformance soak)."""

from __future__ import annotations

from yokai_envs.onmyoji import effects as fx
from yokai_envs.onmyoji.decisions import legal_actions
from yokai_envs.onmyoji.state import CARD_NAMES, N_YOKAI, NO_STATS, ZONE_NAMES, Stage, State, Zone, phase_name


def check_invariants(st: State) -> None:
    """Every Yokai in exactly one zone, each action card in one place, counters in range."""
    counts = [0] * N_YOKAI
    for e in st.enemies:
        if e is not None and not e.is_boss:
            assert st.zone[e.yokai] == Zone.IN_PLAY, f"{st.card(e.yokai).name} in play but zone says " \
                                                  f"{ZONE_NAMES[st.zone[e.yokai]]}"
            counts[e.yokai] += 1
        if e is not None:
            assert 0 <= e.hp <= e.full_hp and e.alive == (e.hp > 0)
            assert 0 <= e.next_action < len(st.card(e.yokai).actions)
    for y in st.pick_candidates:
        assert st.zone[y] == (Zone.PILE if st.stage == Stage.SETUP else Zone.DEFEATED)
        counts[y] += st.stage != Stage.SETUP
    if st.taking >= 0:
        assert st.zone[st.taking] == Zone.DEFEATED
        counts[st.taking] += 1
    for s, p in enumerate(st.players):
        assert 0 <= p.hp <= fx.HP_CAP, f"seat {s} HP {p.hp} out of range"
        assert p.fallen == (p.hp == 0), f"seat {s} fallen flag disagrees with HP"
        for y in p.shikigami:
            assert st.zone[y] == Zone.SHIKIGAMI and st.owner[y] == s
            counts[y] += 1
        for y, _ in p.equips:
            assert st.zone[y] == Zone.EQUIP and st.owner[y] == s
            counts[y] += 1
        for c in range(3):
            places = p.hand[c] + p.used[c] + (p.played == c and not p.used[c])
            assert places == 1, f"seat {s} action card {CARD_NAMES[c]} is in {places} places"
        stats = NO_STATS
        for y, edge in p.equips:
            stats = stats.plus(st.card(y).edges[edge].stats)
        assert stats == p.equip_stats
        # R28: effects are held only between a Duel Final turn's start and its reveal
        assert not p.incoming or (st.final_duel and st.book and st.stage in (Stage.START, Stage.PLAY)), \
            f"seat {s} holds Start-of-turn effects in {phase_name(st)}"
    for lv in (1, 2, 3):
        for y in st.piles[lv]:
            assert st.zone[y] == Zone.PILE and st.card(y).lv == lv, f"{st.card(y).name} misplaced in pile"
    for y in range(N_YOKAI):
        if st.zone[y] == Zone.PILE:
            assert any(y in pile for pile in st.piles), f"{st.card(y).name} lost from its pile"
        if st.zone[y] in (Zone.PILE, Zone.UNDER, Zone.GONE):
            counts[y] += 1
        assert counts[y] == 1, f"Yokai {st.card(y).name} is in {counts[y]} places"
    if not st.over:
        assert legal_actions(st), f"no legal action in {phase_name(st)}"
