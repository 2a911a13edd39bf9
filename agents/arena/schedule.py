"""Who sits where in which game, and every seed, decided before any game is played.

A *table* is the list of agents (spec labels) that play together, one per seat:
- 1 seat (Onmyoji Solo): every agent plays alone.
- round-robin: with at least as many distinct agents as seats, every combination of distinct
  agents; otherwise one table from the list as given, the last agent filling the spare seats
  (``heuristic,random`` at 4 players is one heuristic among three randoms).
- gauntlet ``G``: G with every combination of the others (padded the same way).

Each table plays every distinct seat arrangement of its agents on every deal (duplicate
deals: the same deal seed replayed with the seats permuted), so every arrangement is played
equally often and the luck of the deal cancels. Seeds come from (match seed, deal index) for
the deal and (match seed, table, deal, arrangement, seat) for the agents, never from worker
state, so results do not depend on how games are spread over processes.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Table:
    index: int
    agents: tuple[str, ...]  # one label per slot (labels may repeat)
    arrangements: tuple[tuple[str, ...], ...]  # seat -> label, each distinct arrangement once

    @property
    def name(self) -> str:
        return " vs ".join(self.agents)


@dataclass(frozen=True)
class GameSpec:
    """Everything needed to play one game, derived only from the match seed and its place."""

    index: int
    table: int
    deal: int
    arrangement: int
    seats: tuple[str, ...]
    deal_seed: int
    agent_seeds: tuple[int, ...]


def derive_seed(*keys: int) -> int:
    """A 63-bit seed from a tuple of non-negative ints (stable across machines and runs)."""
    words = np.random.SeedSequence([int(k) for k in keys]).generate_state(2, dtype=np.uint32)
    return int((int(words[0]) << 31) ^ int(words[1]))


def distinct_arrangements(agents: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    seen: dict[tuple[str, ...], None] = {}
    for perm in itertools.permutations(agents):
        seen.setdefault(perm, None)
    return tuple(seen)


def _pad(agents: list[str], size: int) -> list[str]:
    return agents + [agents[-1]] * (size - len(agents))


def build_tables(agents: list[str], num_players: int, gauntlet: str | None = None) -> list[Table]:
    """The tables of a round-robin (or gauntlet) among ``agents`` for ``num_players`` seats."""
    if not agents:
        raise ValueError("give at least one agent")
    distinct = list(dict.fromkeys(agents))
    groups: list[list[str]]
    if num_players == 1:
        groups = [[a] for a in ([gauntlet] if gauntlet else []) + [a for a in distinct if a != gauntlet]]
    elif gauntlet is not None:
        others = [a for a in distinct if a != gauntlet] or [gauntlet]
        need = num_players - 1
        combos = (itertools.combinations(others, need) if len(others) >= need else [_pad(others, need)])
        groups = [[gauntlet, *combo] for combo in combos]
    elif len(distinct) >= num_players:
        groups = [list(c) for c in itertools.combinations(distinct, num_players)]
    elif len(agents) <= num_players:
        groups = [_pad(list(agents), num_players)]
    else:
        raise ValueError(f"{len(agents)} agents for {num_players} seats but only {len(distinct)} distinct: "
                         f"give at most {num_players} agents, or at least {num_players} distinct ones")
    return [Table(i, tuple(g), distinct_arrangements(tuple(g))) for i, g in enumerate(groups)]


def deals_per_table(games: int, table: Table) -> int:
    """Deals needed so each table plays at least ``games`` games, all arrangements equally."""
    per_deal = len(table.arrangements)
    return max(1, -(-games // per_deal))


def schedule(tables: list[Table], games: int, seed: int) -> list[GameSpec]:
    """Every game of the match, in a fixed order (the game index)."""
    specs: list[GameSpec] = []
    for table in tables:
        for deal in range(deals_per_table(games, table)):
            deal_seed = derive_seed(seed, 0, deal)
            for arrangement, seats in enumerate(table.arrangements):
                agent_seeds = tuple(derive_seed(seed, 1, table.index, deal, arrangement, s)
                                    for s in range(len(seats)))
                specs.append(GameSpec(len(specs), table.index, deal, arrangement, seats, deal_seed, agent_seeds))
    return specs
