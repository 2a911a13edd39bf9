"""ISMCTS CPU time per decision and per rules step, on one seeded game (the search rows of docs/record/2026-12-05.md).

Plays a seed-``--seed`` game of ``--env`` (options ``--env-kwargs``) on the raw engine with
``agents.make(SPEC)`` in every seat, or, with ``--opponent OTHER``, in seat ``seed % players``
alone beside ``OTHER`` in the rest (the benchmark's rungs against the heuristic), and times
(``time.process_time``, CPU time, not wall time) the whole ``act`` call of the first
``--decisions`` decisions SPEC makes (every decision, forced ones included); ``--games N`` sums
over the games of seeds ``seed .. seed+N-1`` (a Yonkai game against the heuristic is a dozen or
so decisions, too few to time alone). Then it
replays the same decisions (the search is seeded, so they are the same) with the game's
``_apply`` wrapped, to count the rules steps run in all the worlds the search sampled; the
counting pass is not timed.

    python benchmarks/ismcts_speed.py "ismcts:iterations=200"
    python benchmarks/ismcts_speed.py "ismcts:iterations=200;rollout=heuristic" --decisions 20
    python benchmarks/ismcts_speed.py "pretrained:search=true;iterations=8" --env yokaizo_v4 \
        --env-kwargs '{"decks": "random"}' --opponent heuristic --decisions 20

``--env`` defaults to the newest registered ``yyh_tcg_v*``; the script runs unchanged on older
checkouts (it needs only ``agents.make``, ``act_in_game``, ``make_game`` and ``Game._apply``),
so one copy can time several commits. Measure one process at a time.
"""

from __future__ import annotations

import argparse
import json
import re
import time

from agents import make as make_agent
from agents.base import act_in_game
from yokai_envs.registry import ENV_IDS, make_game


def newest(prefix: str = "yyh_tcg_v") -> str:
    ids = [e for e in ENV_IDS if e.startswith(prefix) and re.fullmatch(r"\d+", e[len(prefix):])]
    return max(ids, key=lambda e: int(e[len(prefix):]))


def play(env_id: str, spec: str, decisions: int, seed: int, options: dict | None = None,
         opponent: str | None = None) -> tuple[float, int, list[int]]:
    """CPU seconds of SPEC's first ``decisions`` act calls, how many it made (fewer when the game
    ends first), and every action of the game until then."""
    options = options or {}
    game = make_game(env_id, **options)
    specs = [spec if opponent is None or i == seed % game.num_players else opponent
             for i in range(game.num_players)]
    agents = [make_agent(s, env_id, options, seed=seed * 10 + i) for i, s in enumerate(specs)]
    game.reset(seed)
    for i, agent in enumerate(agents):
        agent.reset(seed * 10 + i)
    cpu = 0.0
    timed = 0
    actions: list[int] = []
    while not game.is_over and timed < decisions:
        seat = game.current_player
        start = time.process_time()
        action = act_in_game(agents[seat], game)
        if specs[seat] == spec:
            cpu += time.process_time() - start
            timed += 1
        actions.append(action)
        game.step(action)
    return cpu, timed, actions


def count_steps(env_id: str, spec: str, decisions: int, seed: int, options: dict | None = None,
                opponent: str | None = None) -> tuple[int, list[int]]:
    """The same decisions again, counting every ``_apply`` call of the game class (all worlds)."""
    cls = type(make_game(env_id, **(options or {})))
    original = cls.__dict__.get("_apply")
    inner = cls._apply
    count = [0]

    def counted(self, action):  # type: ignore[no-untyped-def]
        count[0] += 1
        return inner(self, action)

    cls._apply = counted  # type: ignore[method-assign]
    try:
        _, _, actions = play(env_id, spec, decisions, seed, options, opponent)
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
    parser.add_argument("--env-kwargs", default="{}", help="env options as JSON, e.g. '{\"decks\": \"random\"}'")
    parser.add_argument("--opponent", default=None,
                        help="spec of every other seat (default: SPEC in every seat); only SPEC is timed")
    parser.add_argument("--decisions", type=int, default=20, help="SPEC's decisions to time")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=1, help="games of seeds seed..seed+games-1, summed")
    parser.add_argument("--no-count", action="store_true", help="skip the (untimed) rules-step counting pass")
    args = parser.parse_args()
    env_id = args.env or newest()
    options = json.loads(args.env_kwargs)
    cpu, timed, actions = 0.0, 0, []
    for seed in range(args.seed, args.seed + args.games):
        game_cpu, game_timed, game_actions = play(env_id, args.spec, args.decisions, seed, options, args.opponent)
        cpu, timed, actions = cpu + game_cpu, timed + game_timed, actions + game_actions
    line = (f"{env_id} {args.env_kwargs} | {args.spec} | {args.games} games | {timed} decisions | "
            f"cpu {cpu:.3f} s | {cpu / args.games:.3f} s a game | {timed / cpu:.3f} decisions/s")
    if not args.no_count:
        steps, again = 0, []
        for seed in range(args.seed, args.seed + args.games):
            game_steps, game_actions = count_steps(env_id, args.spec, args.decisions, seed, options, args.opponent)
            steps, again = steps + game_steps, again + game_actions
        same = "same" if again == actions else "DIFFERENT"
        line += f" | rules steps {steps} | {cpu / steps * 1e6:.2f} us/step | recount decisions {same}"
    print(line + f" | actions hash {hash(tuple(actions)) & 0xFFFFFFFF:08x}", flush=True)


if __name__ == "__main__":
    main()
