"""What one decision of a shipped network costs: SB3's torch path against the numpy forward the
agent plays with, per pretrained model, on observations of seeded random games (microseconds
per decision, one at a time as an agent decides; torch on one thread, as the arena runs it).

    PYTHONPATH=$PWD python benchmarks/policy_forward.py --decisions 300
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def observations_of(card, decisions: int) -> tuple[np.ndarray, np.ndarray]:
    """``decisions`` (observation, mask) pairs along seeded random games of the card's env."""
    import yokai_envs

    rng = np.random.default_rng(0)
    observations, masks = [], []
    episode = 0
    while len(observations) < decisions:
        game = yokai_envs.make_game(card.env_id, **card.configuration)
        game.reset(episode)
        episode += 1
        while not game.is_over and len(observations) < decisions:
            observations.append(np.asarray(game.observation(game.current_player), dtype=np.float32))
            masks.append(np.array(game.legal_action_mask(), dtype=bool))
            game.step(int(rng.choice(game.legal_actions())))
    return np.asarray(observations), np.asarray(masks)


def per_decision(decide, observations: np.ndarray, masks: np.ndarray) -> float:
    """Microseconds per call of ``decide(observation, mask)``, the best of three passes."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for observation, mask in zip(observations, masks, strict=True):
            decide(observation, mask)
        best = min(best, (time.perf_counter() - start) / len(observations) * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=300)
    args = parser.parse_args()
    import torch

    import agents
    import agents.pretrained as pretrained

    torch.set_num_threads(1)
    print("| model | observation size | torch (us) | numpy (us) | torch / numpy |")
    print("|---|---:|---:|---:|---:|")
    for card in pretrained.cards():
        agent = agents.make("pretrained", card.env_id, card.configuration, seed=0)
        observations, masks = observations_of(card, args.decisions)
        by_torch = per_decision(lambda o, m, a=agent: a.torch_probabilities(o[None], m[None]), observations, masks)
        by_numpy = per_decision(agent.action_probabilities, observations, masks)
        size = observations.shape[1]
        print(f"| {card.name} | {size} | {by_torch:.0f} | {by_numpy:.0f} | {by_torch / by_numpy:.1f}x |")


if __name__ == "__main__":
    main()
