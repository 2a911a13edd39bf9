"""A/B of one env's AEC random-play loop between two source trees, in interleaved rounds.

Each round runs ``yokai_envs.bench``'s AEC loop once per tree, in a fresh process with that tree
first on ``sys.path`` (the order alternates between rounds, so a machine's drift hits both);
prints each tree's median agent-steps/s and the per-round ratios B/A. For a speed change:
the same machine, the same loop, back to back (a whole ``yokai bench`` run swings by tens of
percent between rows).

    git worktree add /tmp/base <commit>
    python benchmarks/aec_ab.py yonkai_no_yokai_v1 /tmp/base . --rounds 4 --seconds 2
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

_CHILD = ("import sys; sys.path.insert(0, sys.argv[1]); from yokai_envs.bench import _aec_loop; "
          "from yokai_envs.registry import make; env = make(sys.argv[2]); _aec_loop(env, 0.5); "
          "print(_aec_loop(env, float(sys.argv[3]))[0])")


def one_run(tree: str, env_id: str, seconds: float) -> float:
    done = subprocess.run([sys.executable, "-c", _CHILD, tree, env_id, str(seconds)], capture_output=True,
                          text=True, check=True)
    return float(done.stdout.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env_id")
    parser.add_argument("tree_a", help="the base source tree (a checkout or worktree)")
    parser.add_argument("tree_b", help="the changed source tree")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0, help="timed seconds per run (after 0.5 s warm-up)")
    args = parser.parse_args()
    runs: dict[str, list[float]] = {args.tree_a: [], args.tree_b: []}
    for round_index in range(args.rounds):
        order = (args.tree_a, args.tree_b) if round_index % 2 == 0 else (args.tree_b, args.tree_a)
        for tree in order:
            runs[tree].append(one_run(tree, args.env_id, args.seconds))
    a, b = runs[args.tree_a], runs[args.tree_b]
    ratios = [y / x for x, y in zip(a, b, strict=True)]
    print(f"{args.env_id}: A {statistics.median(a):,.0f}  B {statistics.median(b):,.0f} agent-steps/s  "
          f"B/A {statistics.median(b) / statistics.median(a):.3f}  per round {[round(r, 3) for r in ratios]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
