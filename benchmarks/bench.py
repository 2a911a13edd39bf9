"""Throughput and memory of every registered env beside peer environments (same as `yokai bench`).

    python benchmarks/bench.py --seconds 3 --configs all --json bench.json
"""

import argparse

from yokai_envs.cli import bench

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    bench.add_arguments(parser)
    raise SystemExit(bench.run(parser.parse_args()))
