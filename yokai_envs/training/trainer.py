"""One training run from a resolved config: envs, model, callbacks, final evaluation.

A run folder holds::

    config.yaml            the resolved config (what --resume reuses)
    state.json             progress: steps, evaluation history, reward curve, best score, snapshots,
                           and the behaviour-cloning result when the config has a pretrain teacher
    model.zip              the final policy          } agents.make("policy:PATH", env_id)
    best_model.zip         best by evaluation        }
    checkpoints/latest.zip the latest policy
    checkpoints/resume.zip the full training state (optimizer, centralized critic) for --resume
    checkpoints/state.json state.json as of that checkpoint (--resume continues from it, dropping
                           the evaluations and rewards of steps after it)
    checkpoints/best_model.zip  best_model.zip as of that checkpoint
    snapshots/step_N.zip   self-play snapshots in the opponent pool
    logs/                  SB3 TensorBoard events and progress.csv (logs/resume_K/ after a resume)
    learning_curve.png     episode reward and win rate vs each evaluation bot over steps
    eval.json              the final arena table against the configured bots
    .yokai-run.json        the marker: this folder is a run (--overwrite replaces only such a
                           folder, and only the files above)

Every file is written under a temporary name and renamed into place (training/safety.py), and
SIGTERM stops a run like Ctrl-C: the checkpoint is saved and the message says how to resume.
"""

from __future__ import annotations

import functools
import json
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from stable_baselines3.common.callbacks import BaseCallback

from yokai_envs.core.errors import ConfigError
from yokai_envs.training.config import algorithm_class
from yokai_envs.training.evaluate import evaluate_checkpoint, evaluate_spec, needs_opponents
from yokai_envs.training.safety import (
    NoGuard,
    RunInterrupted,
    SignalGuard,
    atomic_copy,
    atomic_target,
    atomic_write_text,
    check_new_run_folder,
    clear_run_entries,
    is_run_folder,
    write_marker,
)

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
        self.checkpoint_state = self.root / "checkpoints" / "state.json"
        self.checkpoint_best = self.root / "checkpoints" / "best_model.zip"

    @staticmethod
    def fresh_state() -> dict[str, Any]:
        return {"timesteps": 0, "evaluations": [], "rewards": [], "best": None, "snapshots": [],
                "sessions": 0, "train_seconds": 0.0, "finished": False}

    def load_state(self, path: Path | None = None) -> dict[str, Any]:
        path = path or self.state_file
        if not path.exists():
            return self.fresh_state()
        try:
            state = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as err:
            raise ConfigError(f"{path}: unreadable run state ({err})") from None
        if not isinstance(state, dict) or not {"timesteps", "evaluations", "sessions"} <= state.keys():
            raise ConfigError(f"{path}: not a run state (expected a JSON object with timesteps, evaluations, "
                              "sessions)")
        return state

    def save_state(self, state: dict[str, Any]) -> None:
        atomic_write_text(self.state_file, json.dumps(state, indent=2))


def clear_run_folder(root: str | Path) -> list[str]:
    """Delete a previous run's own files (only in a run folder: see training/safety.py)."""
    path = Path(root)
    check_new_run_folder(path, overwrite=True)
    return clear_run_entries(path) if path.exists() else []


def read_run_config(run_dir: str | Path) -> dict[str, Any]:
    """The config saved in a run folder (for ``--resume``)."""
    folder = RunFolder(run_dir)
    if not folder.config.exists():
        raise ConfigError(f"{folder.root}: no config.yaml; is this a run folder?")
    from yokai_envs.training.config import read_yaml_file

    config = read_yaml_file(folder.config)
    if not isinstance(config, dict):
        raise ConfigError(f"{folder.config}: not a mapping of config keys")
    return config


# ---------------------------------------------------------------------- building
def make_training_env(env_id: str, single_thread_torch: bool, reward: str | None = None,
                      wrappers: tuple[str, ...] = (), **kwargs: Any) -> Any:
    """One training env, with the config's reward hook and wrappers (training/hooks.py); in a
    worker process that will run policy opponents (self-play snapshots), torch gets one thread so
    the workers do not fight over the cores."""
    if single_thread_torch:
        import torch

        torch.set_num_threads(1)
    from yokai_envs.training.gym_env import make_gym

    env: Any = make_gym(env_id, **kwargs)
    if reward or wrappers:
        from yokai_envs.training.hooks import apply_hooks

        env = apply_hooks(env, reward, wrappers)
    return env


def env_factories(config: dict[str, Any], pool: tuple[list[str], list[float]]) -> list[Any]:
    """Picklable constructors of the training envs (for DummyVecEnv and SubprocVecEnv)."""
    game = config["game"]
    specs, weights = pool
    policy_opponents = config["opponents"]["self_play"]["enabled"] or any(s.startswith("policy") for s in specs)
    env = config.get("env", {})
    hooks: dict[str, Any] = {}
    if config.get("reward") or env.get("wrappers"):
        hooks = {"reward": config.get("reward"), "wrappers": tuple(env.get("wrappers", ()))}
    if env.get("skip_forced"):
        hooks["skip_forced"] = True
    return [functools.partial(make_training_env, game["env_id"], policy_opponents, opponents=specs or None,
                              opponent_weights=weights or None, learner_seat=game["learner_seat"],
                              critic_state=config["algorithm"]["network"]["critic_state"], **hooks,
                              **game["options"])
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
    net_arch: Any = list(network["net_arch"])
    if network.get("pi") is not None or network.get("vf") is not None:  # separate policy and value nets
        net_arch = {"pi": list(network["pi"] if network.get("pi") is not None else net_arch),
                    "vf": list(network["vf"] if network.get("vf") is not None else net_arch)}
    policy_kwargs = {"net_arch": net_arch,
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

    def __init__(self, config: dict[str, Any], folder: RunFolder, resume: bool, progress: bool | None,
                 overwrite: bool = False) -> None:
        self.config = config
        self.folder = folder
        self.resume = resume
        self.overwrite = overwrite and not resume
        self.guard: SignalGuard = NoGuard()
        self.progress = config["output"]["progress_bar"] if progress is None else progress
        self.env_id: str = config["game"]["env_id"]
        self.options: dict[str, Any] = dict(config["game"]["options"])
        # Every check before anything is written or deleted: a refused run changes nothing.
        if resume:
            if not folder.resume.exists():
                hint = ("; nothing was saved before it stopped: start afresh with --overwrite"
                        if is_run_folder(folder.root) else "")
                raise ConfigError(f"--resume: {folder.root} has no {folder.resume.relative_to(folder.root)} "
                                  f"to continue from{hint}")
            current = folder.load_state()
            total = config["training"]["total_timesteps"]
            if current.get("finished") and current["timesteps"] >= total:
                raise ConfigError(f"--resume: the run in {folder.root} already finished at step "
                                  f"{current['timesteps']} (training.total_timesteps {total}); to train longer "
                                  "pass --set training.total_timesteps=N with a larger N")
            # Continue from the checkpoint: what was recorded after it belongs to discarded steps.
            self.state = folder.load_state(folder.checkpoint_state) if folder.checkpoint_state.exists() else current
            self.state["sessions"] = max(current.get("sessions", 0), self.state.get("sessions", 0))
            self.state["finished"] = False
        else:
            check_new_run_folder(folder.root, overwrite)
            self.state = folder.fresh_state()

    def prepare_folder(self) -> None:
        """Create (or clear, with --overwrite) the run folder; mark it; write the config; on
        --resume put back the best model of the checkpoint."""
        folder = self.folder
        if self.overwrite and folder.root.exists():
            clear_run_entries(folder.root)
        folder.root.mkdir(parents=True, exist_ok=True)
        write_marker(folder.root, self.backend_name)
        atomic_write_text(folder.config, yaml.safe_dump(self.config, sort_keys=False))
        if self.resume and folder.checkpoint_state.exists():
            if self.state.get("best") is None:
                self.remove_policy(folder.best_model)
            elif folder.checkpoint_best.exists():
                self.copy_policy(folder.checkpoint_best, folder.best_model)
            folder.save_state(self.state)

    def commit_checkpoint(self) -> None:
        """The last step of a checkpoint (after the policies are saved): the best model and the
        state as of now, which --resume continues from."""
        folder = self.folder
        self.state["checkpoint"] = self.current_step()
        if folder.best_model.exists():
            self.copy_policy(folder.best_model, folder.checkpoint_best)
        atomic_write_text(folder.checkpoint_state, json.dumps(self.state, indent=2))
        folder.save_state(self.state)

    def remove_policy(self, path: Path) -> None:
        if path.exists():
            path.unlink()

    def interrupted_message(self, where: str) -> str:
        return f"stopped {where}; continue with yokai train --resume --out {self.folder.root}"

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
        with self.guard.saving():
            if improved:
                self.copy_policy(self.folder.model if final else self.folder.latest, self.folder.best_model)
                state["best"] = {"step": step, "win_rate": score, "against": key}
            self.folder.save_state(state)
        return improved

    def final_evaluation(self) -> dict[str, Any]:
        """The final arena run of the finished model against every bot; writes eval.json."""
        evaluation = self.config["evaluation"]
        started = time.perf_counter()
        try:
            results = self.evaluate_policy(self.folder.model, evaluation["final_games"], seed=self.eval_seed() + 1,
                                           workers=evaluation["workers"])
        except KeyboardInterrupt as stop:
            number = getattr(stop, "signal_number", 2)
            raise RunInterrupted(self.interrupted_message(
                f"during the final evaluation (training is done and saved at step {self.current_step()}); "
                "the evaluation runs again"), number) from None
        seconds = time.perf_counter() - started
        if not self.folder.best_model.exists():
            with self.guard.saving():
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
        search = self.search_evaluation()
        if search is not None:
            report["search"] = search
        with self.guard.saving():
            atomic_write_text(self.folder.eval, json.dumps(report, indent=2))
        return report

    def search_evaluation(self) -> dict[str, Any] | None:
        """The final network with its play-time search (``evaluation.search``) against every bot:
        the trained opponent ``trained:model.zip;OPTIONS`` (SB3 checkpoints only)."""
        evaluation = self.config["evaluation"]
        if evaluation.get("search") is None or self.backend_name not in ("", "sb3"):
            return None
        spec = f"trained:{self.folder.model}" + (f";{evaluation['search']}" if evaluation["search"] else "")
        started = time.perf_counter()
        results = evaluate_spec(spec, self.env_id, self.options, list(evaluation["bots"]),
                                evaluation["search_games"], seed=self.eval_seed() + 1, seats=evaluation["seats"],
                                workers=evaluation["workers"])
        search = {"spec": spec, "games_per_bot": evaluation["search_games"],
                  "eval_seconds": round(time.perf_counter() - started, 1), "results": results}
        with self.guard.saving():
            self.state["search_evaluation"] = {"step": self.current_step(), **search}
            self.folder.save_state(self.state)
        return search

    def finish(self) -> None:
        with self.guard.saving():
            self.state["finished"] = True
            self.folder.save_state(self.state)
            self.plot()

    def plot(self) -> None:
        from yokai_envs.training.plot import plot_learning_curve

        suffix = f" ({self.backend_name})" if self.backend_name else ""
        with atomic_target(self.folder.curve) as tmp:
            plot_learning_curve(self.state, tmp, title=f"{self.env_id} {self.options or ''}{suffix}".strip())


class Trainer(RunBase):
    """Runs (or resumes) the training described by ``config`` in its output folder."""

    def __init__(self, config: dict[str, Any], resume: bool = False, progress: bool | None = None,
                 overwrite: bool = False) -> None:
        super().__init__(config, RunFolder(config["output"]["dir"]), resume, progress, overwrite)

    # ------------------------------------------------------------------ main
    def run(self) -> dict[str, Any]:
        import torch

        # The arena's policy agent hands torch read-only legal-action masks; harmless, and noisy.
        warnings.filterwarnings("ignore", message="The given NumPy array is not writable")

        config, folder, state = self.config, self.folder, self.state
        training = config["training"]
        torch.set_num_threads(training["torch_threads"])
        self.prepare_folder()
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
            stop: KeyboardInterrupt | None = None
            try:
                if remaining > 0:
                    model.learn(remaining, callback=callback, reset_num_timesteps=not self.resume)
            except KeyboardInterrupt as err:
                stop = err
                self.guard.stopping = True  # a second signal waits for the save below
            callback.close()
            state["train_seconds"] += time.perf_counter() - started
            self.save_checkpoint(model)
            if stop is not None:  # keep what was learned; --resume continues from here
                raise RunInterrupted(self.interrupted_message(f"at step {model.num_timesteps}"),
                                     getattr(stop, "signal_number", 2))
            with self.guard.saving():
                self.save_policy(model, folder.model)
        finally:
            vec_env.close()
        final = self.final_evaluation()
        self.finish()
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
        with atomic_target(self.folder.resume) as tmp:
            model.save(str(tmp))

    def save_checkpoint(self, model: Any) -> None:
        """latest.zip, resume.zip, then the state they belong to (signals wait for all of it)."""
        with self.guard.saving():
            self.state["timesteps"] = int(model.num_timesteps)
            self.save_policy(model, self.folder.latest)
            self.save_training_state(model)
            self.commit_checkpoint()

    def evaluate(self, model: Any, games: int) -> dict[str, dict[str, Any]]:
        """Evaluate the current policy (saved as latest) against every evaluation bot."""
        with self.guard.saving():
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
        atomic_copy(source, target)

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
        # Episodes finished since the last rollout end, by opponent: [episodes, reward sum, wins]
        self.by_opponent: dict[str, list[float]] = {}

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
        for info, done in zip(self.locals.get("infos", ()), self.locals.get("dones", ()), strict=False):
            if done and "episode" in info:
                for label in info.get("opponents", ()):
                    tally = self.by_opponent.setdefault(label, [0, 0.0, 0.0])
                    tally[0] += 1
                    tally[1] += float(info["episode"]["r"])
                    tally[2] += float(info.get("win", 0.0))
        if self.bar is not None:
            self.bar.update(self.training_env.num_envs)
        if self.self_play["enabled"] and self._due(self.self_play["snapshot_every"], self.self_play["start_after"]):
            self._snapshot()
        if self._due(self.every_eval) and self.num_timesteps < self.total:  # at the end: the final evaluation
            self._evaluate()
        if self._due(self.every_checkpoint):  # last: the checkpoint's state holds this step's evaluation
            self.trainer.save_checkpoint(self.model)
        return True

    def _on_rollout_end(self) -> None:
        curves = self.trainer.state.setdefault("opponent_curves", {})
        for label, (episodes, reward, wins) in sorted(self.by_opponent.items()):
            # [step, mean episode reward, win rate, episodes] over this rollout's episodes vs label
            curves.setdefault(label, []).append([int(self.num_timesteps), reward / episodes, wins / episodes,
                                                 int(episodes)])
            self.logger.record(f"train/reward_vs_{_slug(label)}", reward / episodes)
            self.logger.record(f"train/win_rate_vs_{_slug(label)}", wins / episodes)
        self.by_opponent = {}
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
        with trainer.guard.saving():
            trainer.save_policy(self.model, path, slim=True)
            snapshots = trainer.state["snapshots"]
            snapshots.append(str(path))
            del snapshots[:-trainer.config["opponents"]["self_play"]["pool_size"]]
            trainer.folder.save_state(trainer.state)
        specs, weights = opponent_pool(trainer.config, snapshots)
        self.vec_env.env_method("set_opponent_pool", specs, weights)

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
