"""A/B of one env's AEC random-play loop between two source trees, in interleaved rounds.

Each round runs ``yokai_envs.cli.bench``'s AEC loop once per tree, in a fresh process with that tree
first on ``sys.path`` (the order alternates between rounds, so a machine's drift hits both);
prints each tree's median agent-steps/s and the per-round ratios B/A (``ab_driver.py``). For a speed change:
the same machine, the same loop, back to back (a whole ``yokai bench`` run swings by tens of
percent between rows).

    git worktree add /tmp/base <commit>
    python benchmarks/aec_ab.py yonkai_no_yokai_v1 /tmp/base . --rounds 4 --seconds 2
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from ab_driver import interleaved, tree_arguments

_CHILD = ("import sys; sys.path.insert(0, sys.argv[1]); from yokai_envs.cli.bench import _aec_loop; "
          "from yokai_envs.registry import make; env = make(sys.argv[2]); _aec_loop(env, 0.5); "
          "print(_aec_loop(env, float(sys.argv[3]))[0])")


def one_run(tree: str, env_id: str, seconds: float) -> float:
    done = subprocess.run([sys.executable, "-c", _CHILD, tree, env_id, str(seconds)], capture_output=True,
                          text=True, check=True)
    return float(done.stdout.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    tree_arguments(parser)
    parser.add_argument("--seconds", type=float, default=2.0, help="timed seconds per run (after 0.5 s warm-up)")
    args = parser.parse_args()
    line = interleaved(args.tree_a, args.tree_b, args.rounds, lambda tree: one_run(tree, args.env_id, args.seconds))
    print(f"{args.env_id}: agent-steps/s {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
