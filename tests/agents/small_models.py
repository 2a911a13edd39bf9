"""Small Yonkai 3p networks saved as model files, for tests of loading and mixing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

YONKAI = "yonkai_no_yokai_v1"
OPTIONS = {"num_players": 3}


def two_small_models(folder: Path, policy_kwargs: dict[str, Any]) -> list[Path]:
    """Two networks of one architecture (``policy_kwargs``) with different weights (seeds 0, 1)."""
    from sb3_contrib import MaskablePPO

    from agents.model_file import save_model
    from yokai_envs.training.gym_env import make_gym

    paths = []
    for seed in (0, 1):
        env = make_gym(YONKAI, num_players=3, opponents=["random"])
        model = MaskablePPO("MlpPolicy", env, seed=seed, n_steps=16, batch_size=16, policy_kwargs=policy_kwargs)
        paths.append(save_model(model, folder / f"m{seed}.safetensors", {"env_id": YONKAI, "env_options": OPTIONS}))
    return paths
