"""Env steps per second of RLlib training (``backend: rllib``) for different env-runner counts.

    python -m yokai_envs.training.rllib_backend.bench --runners 1 2 --iterations 5
    python -m yokai_envs.training.rllib_backend.bench --runners 4 8 --address auto   # on a cluster

Each row builds the algorithm from a training config (default: the Yonkai quick config,
bots inside the env), runs one warm-up iteration, then times ``--iterations`` more. The total
number of envs stays the same across rows (``--envs``, spread over the runners), so only the
parallelism changes. ``sampling`` counts env steps over the time spent collecting them;
``overall`` over the whole iteration (sampling plus the PPO update in the driver).
"""

from __future__ import annotations

import argparse
import math
import os
import time
from typing import Any


def measure(config_path: str, runners: int, envs: int, iterations: int, batch: int,
            overrides: list[str]) -> dict[str, Any]:
    from yokai_envs.training.common.config import load_config
    from yokai_envs.training.rllib_backend.trainer import build_algorithm_config

    per_runner = math.ceil(envs / max(runners, 1))
    n_steps = max(1, batch // (per_runner * max(runners, 1)))  # so every row collects `batch` steps
    config = load_config(config_path, ["backend=rllib", f"rllib.num_env_runners={runners}",
                                       f"rllib.num_envs_per_env_runner={per_runner}",
                                       f"algorithm.hyperparameters.n_steps={n_steps}", *overrides])
    from ray.rllib.env.multi_agent_episode import MultiAgentEpisode
    from ray.rllib.env.single_agent_episode import SingleAgentEpisode
    from ray.rllib.execution.rollout_ops import synchronous_parallel_sample

    algo = build_algorithm_config(config).build_algo()
    try:
        result = algo.train()  # warm-up: actor start, first weights sync
        lifetime = result["num_env_steps_sampled_lifetime"]
        started = time.perf_counter()
        for _ in range(iterations):
            result = algo.train()
        overall = (result["num_env_steps_sampled_lifetime"] - lifetime) / (time.perf_counter() - started)
        # Sampling alone, exactly as PPO's training step collects a batch.
        sampled, started = 0, time.perf_counter()
        for _ in range(iterations):
            episodes = synchronous_parallel_sample(worker_set=algo.env_runner_group, max_env_steps=batch,
                                                   _uses_new_env_runners=True)
            assert isinstance(episodes, list)
            for episode in episodes:  # the new env runners sample episodes
                assert isinstance(episode, SingleAgentEpisode | MultiAgentEpisode)
                sampled += episode.env_steps()
        sampling = sampled / (time.perf_counter() - started)
    finally:
        algo.stop()
    return {"runners": runners, "envs_per_runner": per_runner, "sampling_steps_per_s": sampling,
            "overall_steps_per_s": overall}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="configs/yonkai_no_yokai/quick.yaml")
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--envs", type=int, default=4, help="envs in total, spread over the runners")
    parser.add_argument("--batch", type=int, default=4000, help="env steps per training iteration")
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--address", default=None, help="Ray cluster address (default: a local instance)")
    parser.add_argument("--num-cpus", type=int, default=os.cpu_count() or 2, help="CPUs of the local instance")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)

    import ray
    import torch

    torch.set_num_threads(1)  # as the trainer does (training.torch_threads): the PPO update runs here
    if args.address:
        ray.init(address=args.address, log_to_driver=False)
    else:
        ray.init(num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False)
    rows = [measure(args.config, r, args.envs, args.iterations, args.batch, args.overrides) for r in args.runners]
    print(f"\n{args.config}: {args.batch} env steps per iteration, {args.iterations} timed iterations, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print("| env runners | envs per runner | sampling env-steps/s | overall env-steps/s (sample + update) |")
    print("|---|---|---|---|")
    for row in rows:
        print(f"| {row['runners']} | {row['envs_per_runner']} | {row['sampling_steps_per_s']:.0f} "
              f"| {row['overall_steps_per_s']:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
