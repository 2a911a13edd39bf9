"""CleanRL-style PPO with invalid-action masking over a gymnasium vector env, in one file.

    python examples/cleanrl_masked_ppo.py --env yonkai_no_yokai_v1 --total-timesteps 200000

The learner is one seat of the game (``yokai_envs.training.make_gym``; the other seats are random bots,
the learner's seat rotates every episode). Each step the policy reads the legal actions from
``envs.call("action_masks")`` and puts -1e8 on the logits of the others (Huang & Ontañón's
invalid action masking, as CleanRL does it). gymnasium 1.x vector envs reset a finished
sub-env on the *next* ``step`` by default (``--autoreset next``): that step's action is dropped
and its transition is not a real one, so it is left out of the loss; ``--autoreset same``
resets within the step instead. The masks are never all False, even on that dropped step.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np
import torch
from torch import nn
from torch.distributions.categorical import Categorical

from yokai_envs.envs.example_flags import add_game_flags, game_options
from yokai_envs.training import make_gym


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="yonkai_no_yokai_v1")
    add_game_flags(parser)
    parser.add_argument("--opponent", default="random", help="agent spec of the other seats")
    parser.add_argument("--autoreset", choices=["next", "same"], default="next")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--total-timesteps", type=int, default=100_000)
    parser.add_argument("--num-envs", type=int, default=4)
    parser.add_argument("--num-steps", type=int, default=128, help="steps per env per rollout")
    parser.add_argument("--learning-rate", type=float, default=2.5e-4)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--num-minibatches", type=int, default=4)
    parser.add_argument("--update-epochs", type=int, default=4)
    parser.add_argument("--clip-coef", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    return parser.parse_args(argv)


def layer(in_size: int, out_size: int, std: float = np.sqrt(2)) -> nn.Linear:
    linear = nn.Linear(in_size, out_size)
    nn.init.orthogonal_(linear.weight, std)
    nn.init.constant_(linear.bias, 0.0)
    return linear


class Agent(nn.Module):
    def __init__(self, obs_size: int, num_actions: int) -> None:
        super().__init__()
        self.critic = nn.Sequential(layer(obs_size, 128), nn.Tanh(), layer(128, 128), nn.Tanh(), layer(128, 1, 1.0))
        self.actor = nn.Sequential(layer(obs_size, 128), nn.Tanh(), layer(128, 128), nn.Tanh(),
                                   layer(128, num_actions, 0.01))

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def get_action_and_value(self, x: torch.Tensor, mask: torch.Tensor, action: torch.Tensor | None = None):
        logits = torch.where(mask, self.actor(x), torch.tensor(-1e8))  # invalid action masking
        dist = Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), self.critic(x)


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    batch_size = args.num_envs * args.num_steps
    minibatch_size = batch_size // args.num_minibatches
    iterations = max(1, args.total_timesteps // batch_size)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # small networks: threads cost more than they give

    mode = gym.vector.AutoresetMode.NEXT_STEP if args.autoreset == "next" else gym.vector.AutoresetMode.SAME_STEP
    options = game_options(args)
    envs = gym.vector.SyncVectorEnv(
        [lambda: make_gym(args.env, opponents=[args.opponent], **options) for _ in range(args.num_envs)],
        autoreset_mode=mode)
    obs_size = envs.single_observation_space.shape[0]
    num_actions = envs.single_action_space.n
    agent = Agent(obs_size, num_actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    obs = torch.zeros((args.num_steps, args.num_envs, obs_size))
    masks = torch.zeros((args.num_steps, args.num_envs, num_actions), dtype=torch.bool)
    actions = torch.zeros((args.num_steps, args.num_envs), dtype=torch.long)
    logprobs = torch.zeros((args.num_steps, args.num_envs))
    rewards = torch.zeros((args.num_steps, args.num_envs))
    dones = torch.zeros((args.num_steps, args.num_envs))
    values = torch.zeros((args.num_steps, args.num_envs))
    valid = torch.ones((args.num_steps, args.num_envs))  # 0 for next-step autoreset steps

    next_obs_np, _ = envs.reset(seed=args.seed)
    next_obs = torch.tensor(next_obs_np, dtype=torch.float32)
    next_done = torch.zeros(args.num_envs)
    resetting = np.zeros(args.num_envs, dtype=bool)  # this step only resets the sub-env (next-step mode)
    wins, episode_returns, nan_rows, start = [], [], 0, time.time()

    for _ in range(iterations):
        for step in range(args.num_steps):
            mask_np = np.stack(envs.call("action_masks"))
            assert mask_np.any(axis=1).all(), "a mask with no legal action"
            mask = torch.tensor(mask_np)
            obs[step], masks[step], dones[step] = next_obs, mask, next_done
            valid[step] = torch.tensor(~resetting, dtype=torch.float32)
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, mask)
                nan_rows += int(torch.isnan(logprob).sum())
            values[step], actions[step], logprobs[step] = value.flatten(), action, logprob
            next_obs_np, reward, terminated, truncated, infos = envs.step(action.numpy())
            done = np.logical_or(terminated, truncated)
            rewards[step] = torch.tensor(reward, dtype=torch.float32)
            next_obs = torch.tensor(next_obs_np, dtype=torch.float32)
            next_done = torch.tensor(done, dtype=torch.float32)
            resetting = done.copy() if mode == gym.vector.AutoresetMode.NEXT_STEP else np.zeros_like(done)
            ended = infos.get("final_info", infos)  # same-step autoreset moves the last info there
            if "win" in ended:
                for i in np.flatnonzero(ended["_win"]):
                    wins.append(float(ended["win"][i]))
                    episode_returns.append(float(ended["returns"][i][ended["learner_seat"][i]]))

        with torch.no_grad():  # generalized advantage estimation
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = torch.zeros_like(rewards)
            last = torch.zeros(args.num_envs)
            for t in reversed(range(args.num_steps)):
                next_nonterminal = 1.0 - (next_done if t == args.num_steps - 1 else dones[t + 1])
                following = next_value if t == args.num_steps - 1 else values[t + 1]
                delta = rewards[t] + args.gamma * following * next_nonterminal - values[t]
                last = delta + args.gamma * args.gae_lambda * next_nonterminal * last
                advantages[t] = last
            returns = advantages + values

        b_obs, b_masks = obs.reshape(-1, obs_size), masks.reshape(-1, num_actions)
        b_actions, b_logprobs = actions.reshape(-1), logprobs.reshape(-1)
        b_advantages, b_returns, b_valid = advantages.reshape(-1), returns.reshape(-1), valid.reshape(-1)
        indices = np.flatnonzero(b_valid.numpy())
        for _ in range(args.update_epochs):
            np.random.shuffle(indices)
            for start_at in range(0, len(indices), minibatch_size):
                mb = indices[start_at:start_at + minibatch_size]
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_masks[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                adv = b_advantages[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8) if len(mb) > 1 else adv
                clipped = torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
                pg_loss = torch.max(-adv * ratio, -adv * clipped).mean()
                v_loss = 0.5 * ((newvalue.view(-1) - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

    envs.close()
    summary = {"env": args.env, "autoreset": args.autoreset, "steps": iterations * batch_size,
               "episodes": len(wins), "win_rate_last_100": float(np.mean(wins[-100:])) if wins else None,
               "mean_return_last_100": float(np.mean(episode_returns[-100:])) if episode_returns else None,
               "nan_logprob_rows": nan_rows, "seconds": round(time.time() - start, 1)}
    print(summary)
    return summary


if __name__ == "__main__":
    main()
