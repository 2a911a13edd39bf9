"""Same as ``yokai evaluate``: python scripts/evaluate.py --game ... --agents ... --out DIR."""

from yokai_envs.cli.evaluate import main

if __name__ == "__main__":
    raise SystemExit(main())
