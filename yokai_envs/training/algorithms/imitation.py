"""Behaviour cloning before PPO (the config's ``pretrain`` section).

PPO from a uniform policy spends most of a short run rediscovering what any sensible player
does; against strong scripted opponents it may never get there (Yonkai 4p: a from-scratch
policy wins about 5% against three heuristic bots after 250k steps). So a run may first copy a
teacher bot: the teacher plays the learner's seat in the training env (against the configured
bot opponents), and the policy is fitted to its decisions by cross-entropy on the masked
distribution while the critic is fitted to the discounted returns of those games. Without the
critic fit, PPO's first updates follow a random value function's advantages and undo much of
the cloned policy.

The teacher acts through ``agents.base.act_in_game`` like any opponent: a heuristic sees the
game only through its own determinization, so cloning never reads hidden cards.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from agents.base import act_in_game

SPARE_ROWS = 1000  # room past ``steps`` for the last episode, before the block must grow


def collect(env: Any, teacher: Any, steps: int, gamma: float, seed: int) -> dict[str, np.ndarray]:
    """``steps`` learner decisions of ``teacher`` in the single-seat training ``env``:
    observations, masks, actions and discounted returns (whole episodes, so a few more)."""
    # Observations go straight into one float32 block: a list of rows plus the final stack
    # would hold them twice. The block has room for the last episode to run past ``steps``;
    # rows never written cost no memory (the pages are never touched).
    capacity = steps + steps // 4 + SPARE_ROWS
    observations = np.empty((capacity, *env.observation_space.shape), dtype=np.float32)
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    episode = 0
    while len(actions) < steps:
        teacher.reset(seed + episode)
        observation, _ = env.reset(seed=seed + episode)
        rewards: list[float] = []
        done = False
        while not done:
            mask = env.action_masks()
            action = act_in_game(teacher, env.unwrapped.game)
            if len(actions) == observations.shape[0]:  # an episode longer than the spare room
                observations = np.concatenate([observations, np.empty_like(observations[:capacity // 4 + 1])])
            observations[len(actions)] = observation
            masks.append(mask)
            actions.append(action)
            observation, reward, terminated, truncated, _ = env.step(action)
            rewards.append(float(reward))
            done = terminated or truncated
        running = 0.0
        discounted = []
        for reward in reversed(rewards):
            running = reward + gamma * running
            discounted.append(running)
        returns.extend(reversed(discounted))
        episode += 1
    return {"observations": observations[:len(actions)], "masks": np.asarray(masks, dtype=bool),
            "actions": np.asarray(actions, dtype=np.int64), "returns": np.asarray(returns, dtype=np.float32),
            "episodes": np.asarray(episode)}


def fit(model: Any, data: dict[str, np.ndarray], epochs: int, batch_size: int, learning_rate: float,
        value_coef: float, seed: int) -> dict[str, float]:
    """Fit ``model.policy`` to the teacher's actions (and its critic to the returns)."""
    import torch

    policy = model.policy
    policy.set_training_mode(True)
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    observations = torch.as_tensor(data["observations"], device=policy.device)
    masks = torch.as_tensor(data["masks"], device=policy.device)
    actions = torch.as_tensor(data["actions"], device=policy.device)
    returns = torch.as_tensor(data["returns"], device=policy.device)
    generator = torch.Generator().manual_seed(seed)
    size = actions.shape[0]
    for _ in range(epochs):
        order = torch.randperm(size, generator=generator)
        for start in range(0, size, batch_size):
            batch = order[start:start + batch_size]
            values, log_prob, _ = policy.evaluate_actions(observations[batch], actions[batch],
                                                          action_masks=masks[batch])
            loss = -log_prob.mean() + value_coef * torch.nn.functional.mse_loss(values.flatten(), returns[batch])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    policy.set_training_mode(False)
    with torch.no_grad():
        agree, value_error = 0.0, 0.0
        for start in range(0, size, 4096):
            part = slice(start, start + 4096)
            distribution = policy.get_distribution(observations[part], action_masks=masks[part].cpu().numpy())
            agree += float((distribution.get_actions(deterministic=True) == actions[part]).sum())
            value_error += float(((policy.predict_values(observations[part]).flatten() - returns[part]) ** 2).sum())
    return {"agreement": agree / size, "value_mse": value_error / size}


def pretrain(model: Any, env: Any, teacher: Any, settings: dict[str, Any], seed: int) -> dict[str, Any]:
    """Collect the teacher's games and clone them into ``model``; the numbers for the run folder."""
    started = time.perf_counter()
    data = collect(env, teacher, settings["steps"], float(model.gamma), seed)
    collected = time.perf_counter()
    result = fit(model, data, settings["epochs"], settings["batch_size"], settings["learning_rate"],
                 float(getattr(model, "vf_coef", 0.5)), seed)
    return {"teacher": settings["imitate"], "decisions": int(data["actions"].shape[0]),
            "episodes": int(data["episodes"]), "collect_seconds": round(collected - started, 1),
            "fit_seconds": round(time.perf_counter() - collected, 1), **result}
