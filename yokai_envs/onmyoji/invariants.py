"""The invariants of an Onmyoji table (checked after every step of the conformance soak)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from yokai_envs.onmyoji import effects as fx
from yokai_envs.onmyoji.actions import N_YOKAI
from yokai_envs.onmyoji.state import CARD_NAMES, NO_STATS, ZONE_NAMES, Stage, Zone

if TYPE_CHECKING:
    from yokai_envs.onmyoji.game import OnmyojiGame


def check_invariants(g: OnmyojiGame) -> None:
    """Every Yokai in exactly one zone, each action card in one place, counters in range."""
    counts = [0] * N_YOKAI
    for e in g.enemies:
        if e is not None and not e.is_boss:
            assert g.zone[e.yokai] == Zone.IN_PLAY, f"{g.yokai_names[e.yokai]} in play but zone says " \
                                                  f"{ZONE_NAMES[g.zone[e.yokai]]}"
            counts[e.yokai] += 1
        if e is not None:
            assert 0 <= e.hp <= e.full_hp and e.alive == (e.hp > 0)
            assert 0 <= e.next_action < len(g.card(e.yokai).actions)
    for y in g.pick_candidates:
        assert g.zone[y] == (Zone.PILE if g.stage == Stage.SETUP else Zone.DEFEATED)
        counts[y] += g.stage != Stage.SETUP
    if g.taking >= 0:
        assert g.zone[g.taking] == Zone.DEFEATED
        counts[g.taking] += 1
    for s, p in enumerate(g.players):
        assert 0 <= p.hp <= fx.HP_CAP, f"seat {s} HP {p.hp} out of range"
        assert p.fallen == (p.hp == 0), f"seat {s} fallen flag disagrees with HP"
        for y in p.shikigami:
            assert g.zone[y] == Zone.SHIKIGAMI and g.owner[y] == s
            counts[y] += 1
        for y, _ in p.equips:
            assert g.zone[y] == Zone.EQUIP and g.owner[y] == s
            counts[y] += 1
        for c in range(3):
            places = p.hand[c] + p.used[c] + (p.played == c and not p.used[c])
            assert places == 1, f"seat {s} action card {CARD_NAMES[c]} is in {places} places"
        stats = NO_STATS
        for y, edge in p.equips:
            stats = stats.plus(g.card(y).edges[edge].stats)
        assert stats == p.equip_stats
        # R28: effects are held only between a Duel Final turn's start and its reveal
        assert not p.incoming or (g.final_duel and g.book and g.stage in (Stage.START, Stage.PLAY)), \
            f"seat {s} holds Start-of-turn effects in {g.phase_name}"
    for lv in (1, 2, 3):
        for y in g.piles[lv]:
            assert g.zone[y] == Zone.PILE and g.card(y).lv == lv, f"{g.yokai_names[y]} misplaced in pile"
    for y in range(N_YOKAI):
        if g.zone[y] == Zone.PILE:
            assert any(y in pile for pile in g.piles), f"{g.yokai_names[y]} lost from its pile"
        if g.zone[y] in (Zone.PILE, Zone.UNDER, Zone.GONE):
            counts[y] += 1
        assert counts[y] == 1, f"Yokai {g.yokai_names[y]} is in {counts[y]} places"
    if not g.over:
        assert g.legal_action_mask().any(), f"no legal action in {g.phase_name}"
