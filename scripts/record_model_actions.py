"""Record a shipped model's choices in tests/agents/fixtures/pretrained_actions.npz.

    python scripts/record_model_actions.py --name onmyoji_duel [--rename onmyoji_duel=onmyoji_duel_gen2]

For model NAME (agents/pretrained/models/NAME.safetensors): 32 observations from random-play games
of its env and configuration, their legal masks, the network's masked distribution through SB3's
own torch path, its most likely legal action, and the digest of the weights file they hold for. A
mixture's distributions and actions are recorded for each of its networks (a leading axis).
tests/agents/test_model_file.py replays them, so a changed weights file without a new recording
fails there. ``--rename OLD=NEW`` moves a recording with its model (an older generation renamed
when a new one ships under the old name).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "agents" / "fixtures" / "pretrained_actions.npz"
DECISIONS = 32


def record(name: str, seed: int = 0) -> dict[str, np.ndarray]:
    import torch

    from agents.model_file import load_policies
    from agents.pretrained import models_dir
    from yokai_envs.registry import make as make_env

    policies, card = load_policies(models_dir() / f"{name}.safetensors")
    env = make_env(card["env_id"], **card["configuration"])
    rng = np.random.default_rng(seed)
    observations, masks = [], []
    episode = 0
    while len(observations) < DECISIONS:
        env.reset(seed=seed + episode)
        episode += 1
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"].astype(bool)
            if rng.random() < 0.2 and len(observations) < DECISIONS:
                observations.append(observation["observation"].astype(np.float32))
                masks.append(mask)
            env.step(int(rng.choice(np.flatnonzero(mask))))
    obs, mask = np.stack(observations), np.stack(masks)
    each = []
    with torch.no_grad():
        for policy in policies:
            tensor, _ = policy.obs_to_tensor(obs)
            probs = policy.get_distribution(tensor, action_masks=mask.copy()).distribution.probs.numpy()
            probs = np.where(mask, probs, 0.0)
            each.append(probs / probs.sum(axis=1, keepdims=True))
    probs = each[0] if len(each) == 1 else np.stack(each)
    return {"observations": obs, "masks": mask, "actions": probs.argmax(axis=-1).astype(np.int64),
            "probabilities": probs.astype(np.float32), "weights_sha256": np.array(card["weights_sha256"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--name", action="append", default=[], help="a shipped model to record (repeatable)")
    parser.add_argument("--rename", action="append", default=[], metavar="OLD=NEW", help="move a recording")
    args = parser.parse_args()
    with np.load(FIXTURE, allow_pickle=False) as data:
        entries = {key: data[key] for key in data.files}
    for item in args.rename:
        old, _, new = item.partition("=")
        moved = {k: v for k, v in entries.items() if k.split("/")[0] == old}
        if not moved:
            raise SystemExit(f"--rename {item}: no recording of {old}")
        for key, value in moved.items():
            del entries[key]
            entries[f"{new}/{key.split('/')[1]}"] = value
    for name in args.name:
        entries.update({f"{name}/{field}": value for field, value in record(name).items()})
    np.savez_compressed(FIXTURE, **entries)
    print(f"wrote {FIXTURE}: " + ", ".join(sorted({k.split('/')[0] for k in entries})))


if __name__ == "__main__":
    main()
