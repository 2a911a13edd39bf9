"""Deep Monte-Carlo (DouZero's DMC): the config's ``dmc`` section.

PPO learns a policy from advantages its critic estimates; in Yonkai the critic explains little of
a game's outcome and the policy stays a copy of the heuristic it was cloned from. DouZero learns
instead the value of each move, Q(s, a), regressed straight onto the return the game then gave
(no bootstrapping, no critic), and plays greedily on it with a little exploration. The action
table of these games is small and fixed, so the action enters as the output row of the network
(one output per action, which is the same function as a one-hot action feature concatenated to
the observation, evaluated once per state instead of once per legal move).

The network keeps its actor-critic shape: Q(s, a) = V(s) + A(s, a), the critic giving V and the
actor's logits giving ``logit_scale * A`` (a dueling head). The saved checkpoint so plays
greedily on Q wherever a policy network plays (``policy:``, ``pretrained``, the search's
``policy=``), its softmax is a Boltzmann policy over Q, and a move the data has not reached keeps
its advantage instead of an arbitrary value. Each collected decision is used for one gradient step
(DouZero's actors feed the learner a stream; nothing is replayed), and decisions count as the
run's timesteps.

The run starts from the network the config has by then (the clone of ``pretrain.imitate``): its
logits, divided by ``logit_scale``, are the first advantages, so the first games are the clone's
and the returns correct its preferences from there. (From zero advantages the greedy player takes
the first legal move everywhere, loses every game against the heuristic, and every move's return
is then the same -1: nothing to learn from.)
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np


class EpisodeBuffer:
    """Each env's decisions in the game it is playing; a finished game's decisions leave with their
    returns-to-go (the sum of the rewards from that decision to the game's end)."""

    def __init__(self, num_envs: int, obs_size: int, capacity: int = 512) -> None:
        self.observations = np.zeros((num_envs, capacity, obs_size), dtype=np.float32)
        self.actions = np.zeros((num_envs, capacity), dtype=np.int64)
        self.rewards = np.zeros((num_envs, capacity), dtype=np.float32)
        self.length = np.zeros(num_envs, dtype=np.int64)
        self.ready: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        self.ready_count = 0

    def add(self, observations: np.ndarray, actions: np.ndarray) -> None:
        rows = np.arange(len(actions))
        if (self.length >= self.observations.shape[1]).any():
            self._grow()
        self.observations[rows, self.length] = observations
        self.actions[rows, self.length] = actions
        self.rewards[rows, self.length] = 0.0
        self.length += 1

    def reward(self, rewards: np.ndarray, dones: np.ndarray) -> None:
        """The rewards that followed each env's last decision; a done env's game is finished."""
        rows = np.flatnonzero(self.length > 0)
        self.rewards[rows, self.length[rows] - 1] += rewards[rows]
        for env in np.flatnonzero(dones):
            n = int(self.length[env])
            if n:
                to_go = np.cumsum(self.rewards[env, :n][::-1])[::-1].astype(np.float32)
                self.ready.append((self.observations[env, :n].copy(), self.actions[env, :n].copy(), to_go))
                self.ready_count += n
            self.length[env] = 0

    def take(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        observations, actions, returns = (np.concatenate(part) for part in zip(*self.ready, strict=True))
        self.ready, self.ready_count = [], 0
        return observations, actions, returns

    def _grow(self) -> None:
        self.observations = np.concatenate([self.observations, np.zeros_like(self.observations)], axis=1)
        self.actions = np.concatenate([self.actions, np.zeros_like(self.actions)], axis=1)
        self.rewards = np.concatenate([self.rewards, np.zeros_like(self.rewards)], axis=1)


def explore(actions: np.ndarray, masks: np.ndarray, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """``actions`` with each replaced, with probability ``epsilon``, by a uniform legal action."""
    chosen = rng.random(len(actions)) < epsilon
    if chosen.any():
        draws = rng.random((int(chosen.sum()), masks.shape[1])) * masks[chosen]
        actions = actions.copy()
        actions[chosen] = draws.argmax(axis=1)
    return actions


def greedy(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    return np.where(masks, logits, -np.inf).argmax(axis=1)


def run_dmc(trainer: Any, model: Any, vec_env: Any) -> None:
    """The DMC decisions the run still owes (``state["dmc"]["steps"]`` counts the done ones);
    an evaluation every ``evaluation.every`` decisions, a checkpoint (and a history row) at each
    evaluation, every ``output.checkpoint_every`` decisions and at the end."""
    import torch
    from sb3_contrib.common.maskable.utils import get_action_masks

    from yokai_envs.training.algorithms.ppo import crossed_multiple

    config, state = trainer.config, trainer.state
    settings = config["dmc"]
    policy = model.policy
    record = state.setdefault("dmc", {"steps": 0, "history": []})
    if record["steps"] == 0:
        if config["evaluation"]["every"] and not state["evaluations"]:
            trainer.record_evaluation(trainer.evaluate(model, config["evaluation"]["games"]))  # the start
        trainer.save_checkpoint(model)
    params = list(policy.parameters())
    optimizer = torch.optim.Adam(params, lr=settings["learning_rate"])
    scale = settings["logit_scale"]
    rng = np.random.default_rng(config["training"]["seed"] + 7919 * (state["sessions"]))
    observations = vec_env.reset()
    num_envs = observations.shape[0]
    buffer = EpisodeBuffer(num_envs, observations.shape[1])
    eval_every, save_every = config["evaluation"]["every"], config["output"]["checkpoint_every"]
    started = time.perf_counter()
    losses: list[float] = []
    returns: list[float] = []
    bar = None
    if trainer.progress:
        from tqdm import tqdm

        bar = tqdm(total=settings["steps"], initial=record["steps"], unit="decision", dynamic_ncols=True, desc="dmc")
    try:
        while record["steps"] < settings["steps"]:
            masks = get_action_masks(vec_env)
            with torch.no_grad():
                obs_tensor = torch.as_tensor(observations, dtype=torch.float32, device=policy.device)
                features = policy.extract_features(obs_tensor)
                logits = policy.action_net(policy.mlp_extractor.forward_actor(features)).cpu().numpy()
            actions = explore(greedy(logits, masks), masks, settings["epsilon"], rng)
            buffer.add(observations, actions)
            observations, rewards, dones, infos = vec_env.step(actions)
            buffer.reward(np.asarray(rewards, dtype=np.float32), np.asarray(dones, dtype=bool))
            returns += [float(infos[env]["episode"]["r"]) for env in np.flatnonzero(dones) if "episode" in infos[env]]
            before = record["steps"]
            record["steps"] += num_envs
            model.num_timesteps += num_envs
            if bar is not None:
                bar.update(num_envs)
            if buffer.ready_count >= settings["fit_every"]:
                losses.append(fit(policy, optimizer, params, *buffer.take(), settings, scale, rng))
            evaluate_now = crossed_multiple(before, record["steps"], eval_every)
            if (evaluate_now or crossed_multiple(before, record["steps"], save_every)
                    or record["steps"] >= settings["steps"]):
                row = {"timesteps": int(model.num_timesteps), "dmc_steps": int(record["steps"]),
                       "q_loss": round(float(np.mean(losses)), 4) if losses else None,
                       "train_return": round(float(np.mean(returns)), 4) if returns else None,
                       "seconds": round(time.perf_counter() - started, 1)}
                record["history"].append(row)
                if returns:  # the learning curve's training panel (mean return of this stretch's games)
                    state["rewards"].append([int(model.num_timesteps), float(np.mean(returns))])
                state["train_seconds"] += time.perf_counter() - started
                started = time.perf_counter()
                losses, returns = [], []
                if evaluate_now:
                    trainer.record_evaluation(trainer.evaluate(model, config["evaluation"]["games"]))
                trainer.save_checkpoint(model)
    finally:
        if bar is not None:
            bar.close()


def fit(policy: Any, optimizer: Any, params: list[Any], observations: np.ndarray, actions: np.ndarray,
        returns: np.ndarray, settings: dict[str, Any], scale: float, rng: np.random.Generator) -> float:
    """One pass over the finished games' decisions: Q(s, a) = V(s) + A(s, a) regressed onto the returns."""
    import torch

    device = policy.device
    obs = torch.as_tensor(observations, device=device)
    act = torch.as_tensor(actions, device=device)
    target = torch.as_tensor(returns, device=device)
    order = torch.as_tensor(rng.permutation(len(actions)), device=device)
    total = 0.0
    batches = 0
    for start in range(0, len(order), settings["batch_size"]):
        rows = order[start:start + settings["batch_size"]]
        features = policy.extract_features(obs[rows])
        latent_pi, latent_vf = policy.mlp_extractor(features)
        advantage = policy.action_net(latent_pi).gather(1, act[rows, None]).squeeze(1) / scale
        q_loss = ((policy.value_net(latent_vf).squeeze(1) + advantage - target[rows]) ** 2).mean()
        optimizer.zero_grad()
        q_loss.backward()
        torch.nn.utils.clip_grad_norm_(params, settings["max_grad_norm"])
        optimizer.step()
        total += q_loss.item()
        batches += 1
    return total / max(batches, 1)
