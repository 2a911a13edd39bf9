"""A custom reward and wrapper used by tests/training/test_hooks.py through import paths."""

from __future__ import annotations

from typing import Any

import gymnasium as gym

CALLS: list[tuple[int, float, bool]] = []


def win_bonus(game: Any, seat: int, reward: float, done: bool) -> float:
    """The default reward, plus 10 for a finished game the seat won outright."""
    CALLS.append((seat, reward, done))
    if done:
        returns = list(game.returns())
        return reward + (10.0 if returns[seat] == max(returns) and returns.count(max(returns)) == 1 else 0.0)
    return reward


class Potential:
    """A stateful hook (a class: one instance per env): counts episodes through reset()."""

    def __init__(self) -> None:
        self.episodes = 0

    def reset(self, game: Any, seat: int) -> None:
        self.episodes += 1

    def __call__(self, game: Any, seat: int, reward: float, done: bool) -> float:
        return reward - 0.001


class CountSteps(gym.Wrapper):
    """Keeps the spaces; counts steps (reached through VecEnv.get_attr)."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.counted = 0

    def step(self, action: Any) -> Any:
        self.counted += 1
        return self.env.step(action)


class FlattenTwice(gym.ObservationWrapper):
    """Changes the observation space: refused."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        low, high = env.observation_space.low, env.observation_space.high
        self.observation_space = gym.spaces.Box(low=low[:1], high=high[:1])

    def observation(self, observation: Any) -> Any:
        return observation[:1]
