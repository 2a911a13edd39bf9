"""Tianshou multi-agent: a DQN learner in seat 0 against masked-random seats, on any yokai game.

    python examples/tianshou_multiagent.py --env yonkai_no_yokai_v1 --epochs 5 --steps-per-epoch 2000

Tianshou (2.x) reads a PettingZoo AEC env through ``tianshou.env.PettingZooEnv``: each step's
observation is ``{"agent_id", "obs", "mask"}`` and ``MultiAgentOffPolicyAlgorithm`` hands every
step to the algorithm of the agent to act. Our envs already observe ``{"observation",
"action_mask"}``, which is what it expects; DQN masks illegal actions in its Q-values, and the
random seats draw legal actions only.
"""

from __future__ import annotations

import argparse

import numpy as np
import torch
from tianshou.algorithm import DQN
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

import yokai_envs
from yokai_envs.envs.example_flags import add_game_flags, game_options


def make_env(env_id: str, options: dict) -> PettingZooEnv:
    return PettingZooEnv(yokai_envs.make(env_id, **options))


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="yonkai_no_yokai_v1")
    add_game_flags(parser)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--steps-per-epoch", type=int, default=500)
    parser.add_argument("--envs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    options = game_options(args)

    torch.manual_seed(args.seed)
    np.random.seed(args.seed)  # the random seats draw with numpy's global generator
    env = make_env(args.env, options)
    observation_shape = env.observation_space["observation"].shape
    agents = env.agents

    # Seat 0 learns with DQN; every other seat plays a legal action at random.
    net = Net(state_shape=observation_shape, action_shape=env.action_space.n, hidden_sizes=[128, 128])
    learner = DQN(policy=DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.1,
                                                 eps_inference=0.0),
                  optim=AdamOptimizerFactory(lr=1e-3), gamma=0.99, target_update_freq=100)
    algorithms = [learner, *(MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space) for _ in agents[1:])]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=algorithms, env=env)

    training_envs = DummyVectorEnv([lambda: make_env(args.env, options) for _ in range(args.envs)])
    test_envs = DummyVectorEnv([lambda: make_env(args.env, options) for _ in range(args.envs)])
    training_envs.seed(args.seed)
    test_envs.seed(args.seed + 1000)
    training_collector = Collector(algorithm, training_envs,
                                   VectorReplayBuffer(20_000, len(training_envs)), exploration_noise=True)
    test_collector = Collector(algorithm, test_envs)

    result = algorithm.run_training(OffPolicyTrainerParams(
        training_collector=training_collector,
        test_collector=test_collector,
        max_epochs=args.epochs,
        epoch_num_steps=args.steps_per_epoch,
        collection_step_num_env_steps=50,
        test_step_num_episodes=args.envs,
        batch_size=64,
        update_step_num_gradient_steps_per_sample=0.1,
        # the learner's return decides "best" (the default would average every seat's)
        multi_agent_return_reduction=lambda returns: returns[:, 0],
        show_progress=False,
        verbose=False,
    ))
    # Seat 0's mean return over fresh test games, learner vs random.
    test_collector.reset()
    stats = test_collector.collect(n_episode=4 * args.envs)
    learner_return = float(np.mean(stats.returns[:, 0])) if stats.returns.ndim == 2 else float(np.mean(stats.returns))
    summary = {"env": args.env, "epochs": args.epochs, "env_steps": int(training_collector.collect_step),
               "best_reward": float(result.best_reward), "test_episodes": int(stats.n_collected_episodes),
               "learner_mean_return": learner_return}
    print(summary)
    return summary


if __name__ == "__main__":
    main()
