"""The numpy-vs-numba measurement behind VectorGame (docs/record/2026-12-05.md, "Vectorized Yonkai no Yokai").

A prototype of the whole Yonkai no Yokai rules (4 players, "win" rewards, automatic reset) in
pure numpy array code, every step of N games in whole-batch operations, timed beside the numba
engine (``VectorGame``) and the scalar engine in the same run, random legal play throughout:

    PYTHONPATH=$PWD python benchmarks/yonkai_vector_prototype.py --seconds 5

The numpy prototype is not held equal to the scalar engine by any test (it was the road not
taken); it plays the same rules so that its cost per decision is a fair comparison.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from yokai_envs.yonkai_no_yokai.moves import move_tables

VALUES, NUM_PLAYS, NUM_ACTIONS = 6, 24, 49
PLAY_COUNT = np.arange(NUM_PLAYS) // VALUES + 1
PLAY_VALUE = np.arange(NUM_PLAYS) % VALUES


class NumpyPrototype:
    def __init__(self, n_games: int, players: int = 4, seed: int = 0) -> None:
        self.N, self.P = n_games, players
        self.copies = 10 if players == 4 else 8
        self.rng = np.random.default_rng(seed)
        t = move_tables()
        self.free, self.button_only, self.after_free, self.after_button = (
            t.free, t.button, t.direction_after_free, t.direction_after_button)
        self.open = t.open_plays
        N, P = n_games, players
        self.hands = np.zeros((N, P, VALUES), np.int8)
        self.sizes = np.zeros((N, P), np.int8)
        self.cubes = np.zeros((N, P), np.int8)
        self.button = np.ones((N, P), bool)
        self.passed = np.zeros((N, P), bool)
        self.played_by = np.zeros((N, P, VALUES), np.int8)
        self.passed_on = np.zeros((N, P, NUM_PLAYS), bool)
        self.direction = np.zeros(N, np.int8)
        self.last_count = np.zeros(N, np.int8)
        self.last_value = np.zeros(N, np.int8)
        self.last_player = np.full(N, -1, np.int8)
        self.to_act = np.zeros(N, np.int64)
        self.rounds = np.zeros(N, np.int8)
        self.ar = np.arange(N)
        self.new_games(self.ar)

    def deal(self, rows: np.ndarray) -> None:
        deck = np.repeat(np.arange(VALUES), self.copies)
        order = np.argsort(self.rng.random((rows.size, deck.size)), axis=1)
        per = deck.size // self.P
        seat_of = np.arange(deck.size) // per
        cards = deck[order]
        hands = np.zeros((rows.size, self.P, VALUES), np.int8)
        np.add.at(hands, (np.repeat(np.arange(rows.size), deck.size), np.tile(seat_of, rows.size), cards.ravel()), 1)
        self.hands[rows] = hands
        self.sizes[rows] = per
        self.button[rows] = True
        self.played_by[rows] = 0
        self.passed_on[rows] = False

    def start_trick(self, rows: np.ndarray, leaders: np.ndarray) -> None:
        self.passed[rows] = False
        self.direction[rows] = 0
        self.last_count[rows] = 0
        self.last_value[rows] = 0
        self.last_player[rows] = -1
        self.to_act[rows] = leaders

    def new_games(self, rows: np.ndarray) -> None:
        self.cubes[rows] = 4
        self.rounds[rows] = 0
        self.deal(rows)
        self.start_trick(rows, self.rng.integers(self.P, size=rows.size))

    def masks(self) -> np.ndarray:
        ar, seat = self.ar, self.to_act
        feasible = self.hands[ar, seat][:, PLAY_VALUE] >= PLAY_COUNT
        d, lc, lv = self.direction, self.last_count, self.last_value
        lead = lc == 0
        out = np.zeros((self.N, NUM_ACTIONS), bool)
        out[:, 0] = ~lead
        out[:, 1:25] = feasible & self.free[d, lc, lv]
        out[lead, 1:25] = feasible[lead] & (PLAY_COUNT == 1)
        out[:, 25:] = feasible & self.button_only[d, lc, lv] & self.button[ar, seat][:, None]
        return out

    def random_actions(self, masks: np.ndarray) -> np.ndarray:
        counts = masks.sum(axis=1)
        pick = (self.rng.random(self.N) * counts).astype(np.int64)
        return (masks.cumsum(axis=1) > pick[:, None]).argmax(axis=1)

    def next_active(self, rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
        nxt = (seats + 1) % self.P
        for _ in range(self.P - 1):
            blocked = self.passed[rows, nxt]
            nxt = np.where(blocked, (nxt + 1) % self.P, nxt)
        return nxt

    def step(self, actions: np.ndarray) -> np.ndarray:
        seat = self.to_act.copy()
        d, lc, lv = self.direction.copy(), self.last_count.copy(), self.last_value.copy()
        done = np.zeros(self.N, bool)
        p = np.flatnonzero(actions == 0)
        if p.size:
            s = seat[p]
            self.passed_on[p, s] |= self.open[self.button[p, s].astype(np.int64), d[p], lc[p], lv[p]]
            self.passed[p, s] = True
            self.button[p, s] = True
            ends = (~self.passed[p]).sum(axis=1) == 1
            self.start_trick(p[ends], self.last_player[p[ends]].astype(np.int64))
            go = p[~ends]
            self.to_act[go] = self.next_active(go, seat[go])
        q = np.flatnonzero(actions > 0)
        if q.size:
            s = seat[q]
            a = actions[q]
            wb = a >= 25
            play = np.where(wb, a - 25, a - 1)
            c, v = PLAY_COUNT[play], PLAY_VALUE[play]
            dq, lcq, lvq = d[q], lc[q], lv[q]
            newdir = np.where(lcq == 0, 0, np.where(wb, self.after_button[dq, lcq, lvq, play],
                                                    self.after_free[dq, lcq, lvq, play]))
            self.button[q, s] &= ~wb
            self.hands[q, s, v] -= c.astype(np.int8)
            self.sizes[q, s] -= c.astype(np.int8)
            self.played_by[q, s, v] += c.astype(np.int8)
            self.direction[q] = newdir
            self.last_count[q] = c
            self.last_value[q] = v + 1
            self.last_player[q] = s
            self.passed[q[c == 1]] = False
            emptied = self.sizes[q, s] == 0
            r, winner = q[emptied], s[emptied]
            if r.size:
                others = np.ones((r.size, self.P), bool)
                others[np.arange(r.size), winner] = False
                sizes = np.where(others, self.sizes[r], -1)
                loss = np.where(others, np.where(sizes == sizes.max(axis=1, keepdims=True), 2, 1), 0)
                over = (loss > self.cubes[r]).any(axis=1)
                self.cubes[r] = np.maximum(self.cubes[r] - loss, 0)
                self.rounds[r] += 1
                done[r[over]] = True
                go = r[~over]
                self.deal(go)
                self.start_trick(go, winner[~over])
            rest = q[~emptied]
            self.to_act[rest] = self.next_active(rest, s[~emptied])
        finished = np.flatnonzero(done)
        if finished.size:
            self.new_games(finished)
        return done


def _time(step, seconds: float) -> float:
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        decisions += step()
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--sizes", type=int, nargs="+", default=[256, 1024, 4096])
    args = parser.parse_args()
    from yokai_envs.registry import make_game
    from yokai_envs.yonkai_no_yokai.vector import VectorGame

    game = make_game("yonkai_no_yokai_v1", num_players=4)
    game.reset(0)
    rng = np.random.default_rng(0)

    def scalar_step() -> int:
        if game.is_over:
            game.reset()
        legal = np.flatnonzero(game.legal_action_mask())
        game.step(int(legal[rng.integers(legal.size)]))
        return 1

    print(f"load average {os.getloadavg()}")
    scalar = _time(scalar_step, args.seconds)
    print("| engine | N | decisions/s | x scalar |\n|---|---|---|---|")
    print(f"| scalar YonkaiGame | 1 | {scalar:,.0f} | 1.0 |")
    for n in args.sizes:
        proto = NumpyPrototype(n)

        def numpy_step(proto: NumpyPrototype = proto, n: int = n) -> int:
            proto.step(proto.random_actions(proto.masks()))
            return n

        vg = VectorGame(n, seed=0)
        buffer = np.empty(n, dtype=np.int64)

        def numba_step(vg: VectorGame = vg, n: int = n, acts: np.ndarray = buffer) -> int:
            vg.step(vg.random_actions(out=acts))
            return n

        numba_step()  # compile outside the timing
        for name, fn in (("numpy prototype", numpy_step), ("numba VectorGame", numba_step)):
            rate = _time(fn, args.seconds)
            print(f"| {name} | {n} | {rate:,.0f} | {rate / scalar:.1f} |")
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
