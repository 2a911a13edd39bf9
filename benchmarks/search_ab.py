"""A/B of one env's search work between two source trees, in CPU time, in interleaved rounds.

Like ``aec_ab.py`` (each run a fresh process with its tree first on ``sys.path``, the order
alternating between rounds), but it times what a search does, in CPU seconds
(``time.process_time``), which a loaded machine disturbs less than wall time:

- ``--spec rollout``: 40 sampled worlds (``determinize``) from each of 5 positions, each played
  to the end by random ``legal_actions`` / ``step_unchecked`` steps; prints CPU microseconds per
  step (lower is faster).
- ``--spec <agent spec>`` (e.g. ``ismcts:iterations=200``): that agent in both seats for the
  first 12 decisions from seed 0; prints decisions per CPU second.

The speed ratio B/A (above 1: B is faster) is the median of the per-round ratios.

    git worktree add /tmp/base <commit>
    python benchmarks/search_ab.py yokaizo_v4 /tmp/base . --spec rollout --rounds 4
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from ab_driver import interleaved, tree_arguments

_ROLLOUT = r'''
import sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
from yokai_envs.registry import make_game
total, steps = 0.0, 0
for seed in range(5):
    game = make_game(sys.argv[2]); game.reset(seed)
    rng = np.random.default_rng(seed)
    for _ in range(40):
        if game.is_over:
            break
        legal = game.legal_actions(); game.step(legal[rng.integers(len(legal))])
    if game.is_over:
        continue
    start = time.process_time()
    for _ in range(40):
        world = game.determinize(game.current_player, rng)
        while not world.is_over:
            legal = world.legal_actions(); world.step_unchecked(legal[rng.integers(len(legal))]); steps += 1
    total += time.process_time() - start
print(total / steps * 1e6)
'''

_DECISIONS = r'''
import sys, time
sys.path.insert(0, sys.argv[1])
from agents.base import act_in_game
from agents.specs import make as make_agent
from yokai_envs.registry import make_game
game = make_game(sys.argv[2]); game.reset(0)
agents = [make_agent(sys.argv[3], sys.argv[2], seed=seat) for seat in range(game.num_players)]
for seat, agent in enumerate(agents):
    agent.reset(seat)
spent, decisions = 0.0, 0
while not game.is_over and decisions < 12:
    start = time.process_time(); action = act_in_game(agents[game.current_player], game)
    spent += time.process_time() - start
    game.step(action); decisions += 1
print(decisions / spent)
'''


def one_run(tree: str, env_id: str, spec: str) -> float:
    args = [_ROLLOUT, tree, env_id] if spec == "rollout" else [_DECISIONS, tree, env_id, spec]
    done = subprocess.run([sys.executable, "-c", *args], capture_output=True, text=True, check=True, cwd="/")
    return float(done.stdout.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    tree_arguments(parser)
    parser.add_argument("--spec", default="rollout", help="'rollout' or an agent spec (default rollout)")
    args = parser.parse_args()
    rollout = args.spec == "rollout"
    line = interleaved(args.tree_a, args.tree_b, args.rounds, lambda tree: one_run(tree, args.env_id, args.spec),
                       higher_is_faster=not rollout)
    unit = "CPU us per rollout step" if rollout else "decisions per CPU second"
    print(f"{args.env_id} {args.spec}: {unit} {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
