"""OpenSpiel's ISMCTS bot on a yokai game, through the OpenSpiel bridge.

    python examples/openspiel_ismcts.py --env yokaizo_v4 --games 20 --simulations 50

``yokai_envs.envs.openspiel`` registers every env id as a pyspiel python game (sequential,
imperfect information, the deal its one chance event; see its docstring). OpenSpiel's Python ISMCTS
(``open_spiel.python.algorithms.ismcts``) searches the seat's information set: each simulation
draws a world with ``state.resample_from_infostate`` (our ``Game.determinize``), keys its tree
on ``information_state_string`` and evaluates leaves with random rollouts. Seat 0 is ISMCTS,
the others play uniformly at random; the seats do not rotate, so compare with
``--simulations 0`` (seat 0 random too) for the baseline.
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from yokai_envs.envs import openspiel
from yokai_envs.envs.example_flags import add_game_flags, game_options


def play(state: pyspiel.State, bots: list) -> pyspiel.State:
    """One whole game: the bot of the seat to act picks each action."""
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state


def deal(game: pyspiel.Game, rng: np.random.RandomState) -> pyspiel.State:
    """A new game past its one chance event, the deal seed."""
    state = game.new_initial_state()
    state.apply_action(int(rng.randint(openspiel.DEAL_SEEDS)))
    return state


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="yonkai_no_yokai_v1")
    add_game_flags(parser)
    parser.add_argument("--options", default="{}", help='other game options as JSON, e.g. \'{"variant": "book"}\'')
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--simulations", type=int, default=30, help="ISMCTS simulations per decision (0: random)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    game = openspiel.load_game(args.env, **{**json.loads(args.options), **game_options(args)})
    rng = np.random.RandomState(args.seed)
    deals = np.random.RandomState(args.seed + 1)
    if args.simulations > 0:
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        # Strict about action sets (OpenSpiel's default): in a sampled world each other seat's
        # information state determines its legal actions (Game.determinize).
        seat0 = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=args.simulations, random_state=rng)
    else:
        seat0 = pyspiel.make_uniform_random_bot(0, args.seed)
    bots = [seat0] + [pyspiel.make_uniform_random_bot(p, args.seed + p) for p in range(1, game.num_players())]

    returns, lengths = [], []
    for _ in range(args.games):
        state = play(deal(game, deals), bots)
        returns.append(state.returns())
        lengths.append(len(state.history()))
    returns_array = np.array(returns)
    summary = {"env": args.env, "games": args.games, "simulations": args.simulations,
               "seat0_mean_return": float(returns_array[:, 0].mean()),
               "seat0_wins": int((returns_array[:, 0] > 0).sum()), "mean_length": float(np.mean(lengths))}
    print(summary)
    return summary


if __name__ == "__main__":
    main()
