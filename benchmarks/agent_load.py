"""CPU time of a fresh process that builds one agent and plays one move (docs/results/speed.md).

What an arena worker, a ``yokai score`` cell or ``yokai serve`` pays before its first decision:
the interpreter, the imports, reading the model and one decision. The process's own user + system
time (``resource.getrusage``, so the machine's load matters little) and whether torch was imported.

    python benchmarks/agent_load.py
    python benchmarks/agent_load.py "pretrained:search=true" --env onmyoji_v5 --env-kwargs '{"mode": "duel"}'

Run it once per measurement (each run is one fresh process); the script needs only
``agents.make``, ``act_in_game`` and ``make_game``, so one copy times several checkouts.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys

from agents import make as make_agent
from agents.base import act_in_game
from yokai_envs.registry import make_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("spec", nargs="?", default="pretrained")
    parser.add_argument("--env", default="yonkai_no_yokai_v1")
    parser.add_argument("--env-kwargs", default='{"num_players": 4}', help="the env options, as JSON")
    args = parser.parse_args()
    options = json.loads(args.env_kwargs)
    agent = make_agent(args.spec, args.env, options, seed=0)
    game = make_game(args.env, **options)
    game.reset(0)
    action = act_in_game(agent, game)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"{usage.ru_utime + usage.ru_stime:.2f} s CPU (user {usage.ru_utime:.2f}, system {usage.ru_stime:.2f}); "
          f"action {action}; torch imported: {'torch' in sys.modules}")


if __name__ == "__main__":
    main()
