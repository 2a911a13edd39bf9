"""Game-independent helpers for the conformance suite."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from yokai_envs.core.game import Game


def random_action(game: Game, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(game.legal_action_mask())
    assert legal.size > 0, f"{game.env_id}: no legal action in phase {game.phase_name} at step {game.steps}"
    return int(legal[rng.integers(legal.size)])


def play_random(game: Game, seed: int, policy_seed: int | None = None) -> Game:
    game.reset(seed)
    rng = np.random.default_rng(seed if policy_seed is None else policy_seed)
    while not game.is_over:
        game.step(random_action(game, rng))
    return game


def sampled_states(game: Game, seeds: range, every: int = 7) -> Iterator[Game]:
    """Walk random games and yield the live game at every ``every``-th decision."""
    for seed in seeds:
        game.reset(seed)
        rng = np.random.default_rng(seed + 10_000)
        while not game.is_over:
            if game.steps % every == 0:
                yield game
                if game.is_over:  # the consumer may have stepped the game to its end
                    break
            game.step(random_action(game, rng))


def snapshot(game: Game) -> tuple:
    """Everything observable about a game, to compare before and after an operation."""
    observations = tuple(game.observation(seat).tobytes() for seat in range(game.num_players))
    return (game.state_tensor().tobytes(), observations, game.legal_action_mask().tobytes(),
            game.current_player, game.steps, tuple(game.action_history), game.returns().tobytes(),
            game.is_terminal, game.is_truncated)
