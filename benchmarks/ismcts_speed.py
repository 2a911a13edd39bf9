"""ISMCTS CPU time per decision and per rules step, on one seeded game (the search rows of docs/record/2026-12-05.md).

Plays a seed-``--seed`` game of ``--env`` on the raw engine with ``agents.make(SPEC)`` in every
seat and times (``time.process_time``, CPU time, not wall time) the whole ``act`` call of the
first ``--decisions`` decisions the agents make (every decision, forced ones included). Then it
replays the same decisions (the search is seeded, so they are the same) with the game's
``_apply`` wrapped, to count the rules steps run in all the worlds the search sampled; the
counting pass is not timed.

    python benchmarks/ismcts_speed.py "ismcts:iterations=200"
    python benchmarks/ismcts_speed.py "ismcts:iterations=200;rollout=heuristic" --decisions 20

``--env`` defaults to the newest registered ``yyh_tcg_v*``; the script runs unchanged on older
checkouts (it needs only ``agents.make``, ``act_in_game``, ``make_game`` and ``Game._apply``),
so one copy can time several commits. Measure one process at a time.
"""

from __future__ import annotations

import argparse
import re
import time

from agents import make as make_agent
from agents.base import act_in_game
from yokai_envs.registry import ENV_IDS, make_game


def newest(prefix: str = "yyh_tcg_v") -> str:
    ids = [e for e in ENV_IDS if e.startswith(prefix) and re.fullmatch(r"\d+", e[len(prefix):])]
    return max(ids, key=lambda e: int(e[len(prefix):]))


def play(env_id: str, spec: str, decisions: int, seed: int) -> tuple[float, list[int]]:
    """CPU seconds of the first ``decisions`` act calls, and the actions they chose."""
    game = make_game(env_id)
    agents = [make_agent(spec, env_id, seed=seed * 10 + i) for i in range(game.num_players)]
    game.reset(seed)
    for i, agent in enumerate(agents):
        agent.reset(seed * 10 + i)
    cpu = 0.0
    actions: list[int] = []
    while not game.is_over and len(actions) < decisions:
        agent = agents[game.current_player]
        start = time.process_time()
        action = act_in_game(agent, game)
        cpu += time.process_time() - start
        actions.append(action)
        game.step(action)
    return cpu, actions


def count_steps(env_id: str, spec: str, decisions: int, seed: int) -> tuple[int, list[int]]:
    """The same decisions again, counting every ``_apply`` call of the game class (all worlds)."""
    cls = type(make_game(env_id))
    original = cls.__dict__.get("_apply")
    inner = cls._apply
    count = [0]

    def counted(self, action):  # type: ignore[no-untyped-def]
        count[0] += 1
        return inner(self, action)

    cls._apply = counted  # type: ignore[method-assign]
    try:
        _, actions = play(env_id, spec, decisions, seed)
    finally:
        if original is None:
            del cls._apply
        else:
            cls._apply = original  # type: ignore[method-assign]
    return count[0] - len(actions), actions  # the live game's own steps are not search steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spec", help='agent spec, e.g. "ismcts:iterations=200"')
    parser.add_argument("--env", default=None, help="env id (default: the newest registered yyh_tcg_v*)")
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-count", action="store_true", help="skip the (untimed) rules-step counting pass")
    args = parser.parse_args()
    env_id = args.env or newest()
    cpu, actions = play(env_id, args.spec, args.decisions, args.seed)
    line = (f"{env_id} | {args.spec} | {len(actions)} decisions | cpu {cpu:.3f} s | "
            f"{len(actions) / cpu:.3f} decisions/s")
    if not args.no_count:
        steps, again = count_steps(env_id, args.spec, args.decisions, args.seed)
        same = "same" if again == actions else "DIFFERENT"
        line += f" | rules steps {steps} | {cpu / steps * 1e6:.2f} us/step | recount decisions {same}"
    print(line + f" | actions hash {hash(tuple(actions)) & 0xFFFFFFFF:08x}", flush=True)


if __name__ == "__main__":
    main()
