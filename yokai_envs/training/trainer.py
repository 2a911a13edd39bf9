"""One training run from a resolved config: envs, model, callbacks, final evaluation.

A run folder holds::

    config.yaml            the resolved config (what --resume reuses)
    state.json             progress: steps, evaluation history, reward curve, best score, snapshots,
                           and the behaviour-cloning result when the config has a pretrain teacher
    model.zip              the final policy          } agents.make("policy:PATH", env_id)
    best_model.zip         best by evaluation        }
    checkpoints/latest.zip the latest policy
    checkpoints/resume.zip the full training state (optimizer, centralized critic) for --resume
    snapshots/step_N.zip   self-play snapshots in the opponent pool
    logs/                  SB3 TensorBoard events and progress.csv (logs/resume_K/ after a resume)
    learning_curve.png     episode reward and win rate vs each evaluation bot over steps
    eval.json              the final arena table against the configured bots
"""

from __future__ import annotations

import functools
import json
import shutil
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from stable_baselines3.common.callbacks import BaseCallback

from yokai_envs.core.errors import ConfigError
from yokai_envs.training.config import algorithm_class
from yokai_envs.training.evaluate import evaluate_checkpoint, needs_opponents

ACTIVATION_CLASSES = {"tanh": "Tanh", "relu": "ReLU", "elu": "ELU", "leaky_relu": "LeakyReLU"}


class RunFolder:
    """Paths and the persistent state of a run folder."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.config = self.root / "config.yaml"
        self.state_file = self.root / "state.json"
        self.model = self.root / "model.zip"
        self.best_model = self.root / "best_model.zip"
        self.latest = self.root / "checkpoints" / "latest.zip"
        self.resume = self.root / "checkpoints" / "resume.zip"
        self.snapshots = self.root / "snapshots"
        self.logs = self.root / "logs"
        self.curve = self.root / "learning_curve.png"
        self.eval = self.root / "eval.json"

    def load_state(self) -> dict[str, Any]:
        if self.state_file.exists():
            return json.loads(self.state_file.read_text())
        return {"timesteps": 0, "evaluations": [], "rewards": [], "best": None, "snapshots": [],
                "sessions": 0, "train_seconds": 0.0, "finished": False}

    def save_state(self, state: dict[str, Any]) -> None:
        tmp = self.state_file.with_suffix(".tmp")
        tmp.write_text(json.dumps(state, indent=2))
        tmp.replace(self.state_file)


def clear_run_folder(root: str | Path) -> None:
    """Delete a previous run (only a folder that holds one: state.json or config.yaml inside)."""
    folder = RunFolder(root)
    if not folder.root.exists():
        return
    if not (folder.state_file.exists() or folder.config.exists()):
        raise ConfigError(f"--overwrite: {folder.root} exists but holds no run (no state.json); not deleting it")
    shutil.rmtree(folder.root)


def read_run_config(run_dir: str | Path) -> dict[str, Any]:
    """The config saved in a run folder (for ``--resume``)."""
    folder = RunFolder(run_dir)
    if not folder.config.exists():
        raise ConfigError(f"{folder.root}: no config.yaml; is this a run folder?")
    return yaml.safe_load(folder.config.read_text())


# ---------------------------------------------------------------------- building
def make_training_env(env_id: str, single_thread_torch: bool, **kwargs: Any) -> Any:
    """One training env; in a worker process that will run policy opponents (self-play
    snapshots), torch gets one thread so the workers do not fight over the cores."""
    if single_thread_torch:
        import torch

        torch.set_num_threads(1)
    from yokai_envs.training.gym_env import make_gym

    return make_gym(env_id, **kwargs)


def env_factories(config: dict[str, Any], pool: tuple[list[str], list[float]]) -> list[Any]:
    """Picklable constructors of the training envs (for DummyVecEnv and SubprocVecEnv)."""
    game = config["game"]
    specs, weights = pool
    policy_opponents = config["opponents"]["self_play"]["enabled"] or any(s.startswith("policy") for s in specs)
    return [functools.partial(make_training_env, game["env_id"], policy_opponents, opponents=specs or None,
                              opponent_weights=weights or None, learner_seat=game["learner_seat"],
                              critic_state=config["algorithm"]["network"]["critic_state"], **game["options"])
            for _ in range(config["training"]["n_envs"])]


def build_vec_env(config: dict[str, Any], pool: tuple[list[str], list[float]]) -> Any:
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecMonitor

    factories = env_factories(config, pool)
    vec = SubprocVecEnv(factories) if config["training"]["vec_env"] == "subproc" else DummyVecEnv(factories)
    return VecMonitor(vec)


def build_model(config: dict[str, Any], vec_env: Any) -> Any:
    import torch

    algorithm = config["algorithm"]
    network = algorithm["network"]
    policy_kwargs = {"net_arch": list(network["net_arch"]),
                     "activation_fn": getattr(torch.nn, ACTIVATION_CLASSES[network["activation"]])}
    policy: Any = algorithm["policy"]
    if network["critic_state"]:
        from yokai_envs.training.policies import StateCriticPolicy

        policy = StateCriticPolicy
        policy_kwargs["actor_obs_size"] = vec_env.get_attr("actor_obs_size", [0])[0]
    cls = algorithm_class(algorithm["name"])
    return cls(policy, vec_env, policy_kwargs=policy_kwargs, seed=config["training"]["seed"],
               device=config["training"]["device"], verbose=0, **algorithm["hyperparameters"])


def opponent_pool(config: dict[str, Any], snapshots: list[str]) -> tuple[list[str], list[float]]:
    """(specs, weights): the configured bots, plus the self-play snapshots sharing their weight."""
    bots = config["opponents"]["bots"]
    specs = [b["spec"] for b in bots]
    weights = [b["weight"] for b in bots]
    self_play = config["opponents"]["self_play"]
    if self_play["enabled"] and snapshots:
        kept = snapshots[-self_play["pool_size"]:]
        specs += [f"policy:{p};deterministic=false" for p in kept]
        weights += [self_play["weight"] / len(kept)] * len(kept)
    return specs, weights


# ---------------------------------------------------------------------- the run
class RunBase:
    """What every backend's trainer shares: the config, the run folder, the check that a new run
    does not overwrite an old one and a resumed run has something to resume, and evaluation:
    the seed of its deals, the score that picks the best model, the history in state.json, the
    final report (eval.json) and the learning curve. A backend supplies how to evaluate a saved
    policy, how to copy one, the current step and its metrics logger."""

    #: Added to the plot title and the report (e.g. "rllib"); empty for the default SB3 backend.
    backend_name = ""

    def __init__(self, config: dict[str, Any], folder: RunFolder, resume: bool, progress: bool | None) -> None:
        self.config = config
        self.folder = folder
        self.resume = resume
        self.progress = config["output"]["progress_bar"] if progress is None else progress
        self.env_id: str = config["game"]["env_id"]
        self.options: dict[str, Any] = dict(config["game"]["options"])
        if resume:
            if not folder.resume.exists():
                raise ConfigError(f"--resume: {folder.root} has no {folder.resume.relative_to(folder.root)} "
                                  "to continue from")
        elif folder.state_file.exists():
            raise ConfigError(f"{folder.root} already holds a run; pass --resume to continue it, "
                              "--overwrite to start afresh, or --out another folder")
        self.state = folder.load_state()

    # ------------------------------------------------------------------ what a backend supplies
    def evaluate_policy(self, path: Path, games: int, seed: int, workers: int | None = None,
                        references: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
        raise NotImplementedError

    def copy_policy(self, source: Path, target: Path) -> None:
        raise NotImplementedError

    def current_step(self) -> int:
        raise NotImplementedError

    def metrics_logger(self) -> Any:
        """An SB3-style logger (``record``, ``dump``) for the eval/ curves."""
        raise NotImplementedError

    def policy_label(self, path: Path) -> str:
        """How eval.json names the evaluated policy (a spec ``agents.make`` takes)."""
        return str(path)

    # ------------------------------------------------------------------ shared evaluation
    def eval_seed(self) -> int:
        # The same deals at every evaluation, so the curve compares like with like.
        return self.config["training"]["seed"] + 10_007

    def score_key(self) -> str:
        evaluation = self.config["evaluation"]
        if not needs_opponents(self.env_id, self.options):
            return "self"
        return evaluation["best_by"] or evaluation["bots"][0]

    def record_evaluation(self, results: dict[str, dict[str, Any]], final: bool = False) -> bool:
        """Append to the history; True (and the best model copied) when it is the best so far."""
        state = self.state
        step = self.current_step()
        state["evaluations"].append({"step": step, "final": final, "results": results})
        logger = self.metrics_logger()
        for label, row in results.items():
            logger.record(f"eval/win_rate_{_slug(label)}", row["win_rate"])
        logger.dump(step)
        key = self.score_key()
        score = results[key]["win_rate"] if key in results else None
        improved = score is not None and (state["best"] is None or score > state["best"]["win_rate"])
        if improved:
            self.copy_policy(self.folder.model if final else self.folder.latest, self.folder.best_model)
            state["best"] = {"step": step, "win_rate": score, "against": key}
        self.folder.save_state(state)
        return improved

    def final_evaluation(self) -> dict[str, Any]:
        """The final arena run of the finished model against every bot; writes eval.json."""
        evaluation = self.config["evaluation"]
        started = time.perf_counter()
        results = self.evaluate_policy(self.folder.model, evaluation["final_games"], seed=self.eval_seed() + 1,
                                       workers=evaluation["workers"])
        seconds = time.perf_counter() - started
        if not self.folder.best_model.exists():
            self.copy_policy(self.folder.model, self.folder.best_model)
        self.record_evaluation(results, final=True)
        report: dict[str, Any] = {"env_id": self.env_id, "env_options": self.options,
                                  "policy": self.policy_label(self.folder.model)}
        if self.backend_name:
            report["backend"] = self.backend_name
        report.update({
            "timesteps": self.current_step(), "train_seconds": round(self.state["train_seconds"], 1),
            "eval_seconds": round(seconds, 1), "games_per_bot": evaluation["final_games"],
            "deterministic": evaluation["deterministic"], "seats": evaluation["seats"],
            "best_model": self.state["best"], "results": results,
        })
        self.folder.eval.write_text(json.dumps(report, indent=2))
        return report

    def plot(self) -> None:
        from yokai_envs.training.plot import plot_learning_curve

        suffix = f" ({self.backend_name})" if self.backend_name else ""
        plot_learning_curve(self.state, self.folder.curve, title=f"{self.env_id} {self.options or ''}{suffix}".strip())


class Trainer(RunBase):
    """Runs (or resumes) the training described by ``config`` in its output folder."""

    def __init__(self, config: dict[str, Any], resume: bool = False, progress: bool | None = None) -> None:
        super().__init__(config, RunFolder(config["output"]["dir"]), resume, progress)

    # ------------------------------------------------------------------ main
    def run(self) -> dict[str, Any]:
        import torch

        # The arena's policy agent hands torch read-only legal-action masks; harmless, and noisy.
        warnings.filterwarnings("ignore", message="The given NumPy array is not writable")

        config, folder, state = self.config, self.folder, self.state
        training = config["training"]
        torch.set_num_threads(training["torch_threads"])
        folder.root.mkdir(parents=True, exist_ok=True)
        folder.config.write_text(yaml.safe_dump(config, sort_keys=False))
        state["sessions"] += 1

        vec_env = build_vec_env(config, opponent_pool(config, state["snapshots"]))
        try:
            if self.resume:
                model = algorithm_class(config["algorithm"]["name"]).load(
                    str(folder.resume), env=vec_env, device=training["device"])
                log_dir = folder.logs / f"resume_{state['sessions'] - 1}"
            else:
                model = build_model(config, vec_env)
                log_dir = folder.logs
                if config["pretrain"]["imitate"]:
                    state["pretrain"] = self.pretrain(model)
            self._set_logger(model, log_dir)
            self.model = model
            remaining = training["total_timesteps"] - model.num_timesteps
            callback = TrainingCallback(self, vec_env)
            started = time.perf_counter()
            interrupted = False
            try:
                if remaining > 0:
                    model.learn(remaining, callback=callback, reset_num_timesteps=not self.resume)
            except KeyboardInterrupt:
                interrupted = True
            callback.close()
            state["train_seconds"] += time.perf_counter() - started
            state["timesteps"] = int(model.num_timesteps)
            self.save_policy(model, folder.latest)
            self.save_training_state(model)
            if interrupted:  # keep what was learned; --resume continues from here
                folder.save_state(state)
                raise KeyboardInterrupt(f"stopped at step {model.num_timesteps}; continue with "
                                        f"yokai train --resume --out {folder.root}")
            self.save_policy(model, folder.model)
        finally:
            vec_env.close()
        final = self.final_evaluation()
        state["finished"] = True
        folder.save_state(state)
        self.plot()
        return final

    def pretrain(self, model: Any) -> dict[str, Any]:
        """Behaviour cloning of ``pretrain.imitate`` into ``model`` (see training/imitation.py)."""
        from agents.specs import make
        from yokai_envs.training.imitation import pretrain

        settings = self.config["pretrain"]
        seed = self.config["training"]["seed"]
        env = env_factories(self.config, opponent_pool(self.config, []))[0]()
        teacher = make(settings["imitate"], self.env_id, self.options, seed=seed)
        try:
            result = pretrain(model, env, teacher, settings, seed)
        finally:
            env.close()
        if self.progress:
            print(f"pretrain: copied {settings['imitate']} over {result['decisions']} decisions "
                  f"(agreement {result['agreement']:.1%}) in {result['collect_seconds'] + result['fit_seconds']:.0f} s")
        return result

    def _set_logger(self, model: Any, log_dir: Path) -> None:
        from stable_baselines3.common.logger import configure

        formats = [f for f, on in (("csv", self.config["output"]["csv"]),
                                   ("tensorboard", self.config["output"]["tensorboard"])) if on]
        model.set_logger(configure(str(log_dir), formats))

    # ------------------------------------------------------------------ pieces
    def save_policy(self, model: Any, path: Path, slim: bool = False) -> None:
        """A checkpoint ``agents.make("policy:PATH")`` loads (observation-only actor); ``slim``
        (self-play snapshots) also drops the training-size rollout buffer settings."""
        from agents.policy import save_checkpoint

        if slim or self.config["algorithm"]["network"]["critic_state"]:
            from yokai_envs.training.policies import export_actor

            model = export_actor(model)
        save_checkpoint(model, path, self.env_id, self.options)

    def save_training_state(self, model: Any) -> None:
        """Everything --resume needs (the full model with its optimizer and critic)."""
        self.folder.resume.parent.mkdir(parents=True, exist_ok=True)
        model.save(str(self.folder.resume))

    def evaluate(self, model: Any, games: int) -> dict[str, dict[str, Any]]:
        """Evaluate the current policy (saved as latest) against every evaluation bot."""
        self.save_policy(model, self.folder.latest)
        # Bots measured alone (Solo/Co-op references) do not change: reuse the first evaluation's rows.
        first = self.state["evaluations"][0]["results"] if self.state["evaluations"] else {}
        references = {k: v for k, v in first.items() if v.get("kind") == "reference"}
        return self.evaluate_policy(self.folder.latest, games, seed=self.eval_seed(), references=references)

    def evaluate_policy(self, path: Path, games: int, seed: int, workers: int | None = None,
                        references: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
        evaluation = self.config["evaluation"]
        extra: dict[str, Any] = {} if workers is None else {"workers": workers}
        if references is not None:
            extra["references"] = references
        return evaluate_checkpoint(str(path), self.env_id, self.options, list(evaluation["bots"]), games,
                                   seed=seed, seats=evaluation["seats"], deterministic=evaluation["deterministic"],
                                   **extra)

    def copy_policy(self, source: Path, target: Path) -> None:
        shutil.copyfile(source, target)

    def current_step(self) -> int:
        return int(self.model.num_timesteps)

    def metrics_logger(self) -> Any:
        return self.model.logger


def _slug(label: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in label).strip("_")


# ---------------------------------------------------------------------- the callback
class TrainingCallback(BaseCallback):
    """Every scheduled thing during learning: progress bar, latest checkpoint, self-play
    snapshots, evaluations (best model), and the episode-reward curve."""

    def __init__(self, trainer: Trainer, vec_env: Any) -> None:
        super().__init__(verbose=0)
        self.trainer = trainer
        self.vec_env = vec_env
        config = trainer.config
        self.every_eval = config["evaluation"]["every"]
        self.every_checkpoint = config["output"]["checkpoint_every"]
        self.self_play = config["opponents"]["self_play"]
        self.total = config["training"]["total_timesteps"]
        self.bar: Any = None
        self.postfix: dict[str, str] = {}

    def _due(self, every: int, start: int = 0) -> bool:
        """True when the step counter crossed a multiple of ``every`` in the last env step."""
        now = self.num_timesteps
        before = now - self.training_env.num_envs
        return every > 0 and now >= start and now // every > before // every

    def _on_training_start(self) -> None:
        if self.trainer.progress:
            from tqdm import tqdm

            # On-policy algorithms collect whole rollouts: the run ends on the next multiple.
            per_rollout = getattr(self.model, "n_steps", 1) * self.training_env.num_envs
            total = -(-self.total // per_rollout) * per_rollout
            self.bar = tqdm(total=total, initial=self.num_timesteps, unit="step", dynamic_ncols=True,
                            desc=f"train {self.trainer.env_id}", smoothing=0.05)
        if self.every_eval and not self.trainer.state["evaluations"]:
            self._evaluate()  # the untrained policy: where the curve starts

    def _on_step(self) -> bool:
        if self.bar is not None:
            self.bar.update(self.training_env.num_envs)
        if self._due(self.every_checkpoint):
            self.trainer.save_policy(self.model, self.trainer.folder.latest)
            self.trainer.save_training_state(self.model)
            self.trainer.state["timesteps"] = int(self.num_timesteps)
            self.trainer.folder.save_state(self.trainer.state)
        if self.self_play["enabled"] and self._due(self.self_play["snapshot_every"], self.self_play["start_after"]):
            self._snapshot()
        if self._due(self.every_eval):
            self._evaluate()
        return True

    def _on_rollout_end(self) -> None:
        buffer = self.model.ep_info_buffer
        if buffer:
            mean = float(np.mean([e["r"] for e in buffer]))
            self.trainer.state["rewards"].append([int(self.num_timesteps), mean])
            self.postfix["reward"] = f"{mean:+.2f}"
            if self.bar is not None:
                self.bar.set_postfix(self.postfix, refresh=False)

    def _snapshot(self) -> None:
        trainer = self.trainer
        path = trainer.folder.snapshots / f"step_{self.num_timesteps}.zip"
        trainer.save_policy(self.model, path, slim=True)
        snapshots = trainer.state["snapshots"]
        snapshots.append(str(path))
        del snapshots[:-trainer.config["opponents"]["self_play"]["pool_size"]]
        specs, weights = opponent_pool(trainer.config, snapshots)
        self.vec_env.env_method("set_opponent_pool", specs, weights)
        trainer.folder.save_state(trainer.state)

    def _evaluate(self) -> None:
        trainer = self.trainer
        results = trainer.evaluate(self.model, trainer.config["evaluation"]["games"])
        trainer.record_evaluation(results)
        for label, row in results.items():
            self.postfix[f"win[{label}]"] = f"{row['win_rate']:.0%}"
        if self.bar is not None:
            self.bar.set_postfix(self.postfix)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
