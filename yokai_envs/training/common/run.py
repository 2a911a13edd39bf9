"""A run folder and what every trainer shares (the SB3 trainer, ``algorithms/ppo.py``, and the RLlib one).

A run folder holds::

    config.yaml            the resolved config (what --resume reuses)
    state.json             progress: steps, evaluation history, reward curve, best score, snapshots,
                           and the behaviour-cloning result when the config has a pretrain teacher
                           (with ``reused_from`` when the run started from a curve's saved clone)
    model.safetensors      the final policy          } agents.make("policy:PATH", env_id); each
    best_model.safetensors best by evaluation        } NAME.safetensors has its card NAME.json
    checkpoints/latest.safetensors  the latest policy  (agents/model_file.py: weights only)
    checkpoints/resume.safetensors  the full training state (optimizer, centralized critic) for
                           --resume (training/common/training_state.py)
    checkpoints/state.json state.json as of that checkpoint (--resume continues from it, dropping
                           the evaluations and rewards of steps after it)
    checkpoints/best_model.safetensors  best_model as of that checkpoint
    snapshots/step_N.safetensors  self-play snapshots in the opponent pool
    logs/                  SB3 TensorBoard events and progress.csv (logs/resume_K/ after a resume)
    learning_curve.png     episode reward and win rate vs each evaluation bot over steps
    eval.json              the final arena table against the configured bots
    .yokai-run.json        the marker: this folder is a run (--overwrite replaces only such a
                           folder, and only the files above)

Runs saved before models were weights-only hold ``.zip`` files (pickles); ``--resume`` continues
one only with ``--trust-pickles``.

Every file is written under a temporary name and renamed into place (training/common/safety.py), and
SIGTERM stops a run like Ctrl-C: the checkpoint is saved and the message says how to resume.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import yaml

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.files import parse_json
from yokai_envs.training.common.evaluate import evaluate_spec, needs_opponents
from yokai_envs.training.common.safety import (
    NoGuard,
    RunInterrupted,
    SignalGuard,
    atomic_target,
    atomic_write_text,
    check_new_run_folder,
    clear_run_entries,
    is_run_folder,
    remove_stale_temporaries,
    write_marker,
)


def evaluation_seed(config: dict[str, Any]) -> int:
    """The deals of every evaluation during training: the same each time, so the curve compares
    like with like."""
    return int(config["training"]["seed"]) + 10_007


def final_evaluation_seed(config: dict[str, Any]) -> int:
    """The deals of the final evaluation: never the ones the best model was picked on."""
    return evaluation_seed(config) + 1


class RunFolder:
    """Paths and the persistent state of a run folder."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.config = self.root / "config.yaml"
        self.state_file = self.root / "state.json"
        self.model = self.root / "model.safetensors"
        self.best_model = self.root / "best_model.safetensors"
        self.latest = self.root / "checkpoints" / "latest.safetensors"
        self.resume = self.root / "checkpoints" / "resume.safetensors"
        # resume as of the committed checkpoint while a new one is written (see save_checkpoint)
        self.resume_previous = self.root / "checkpoints" / "resume.previous.safetensors"
        self.legacy_resume = self.root / "checkpoints" / "resume.zip"  # a pickle: only with --trust-pickles
        self.snapshots = self.root / "snapshots"
        self.kept = self.root / "kept"
        self.logs = self.root / "logs"
        self.curve = self.root / "learning_curve.png"
        self.eval = self.root / "eval.json"
        self.checkpoint_state = self.root / "checkpoints" / "state.json"
        self.checkpoint_best = self.root / "checkpoints" / "best_model.safetensors"

    def kept_policy(self, step: int) -> Path:
        """Where ``output.keep_policies_at`` keeps the policy of ``step`` (its record beside it as
        ``.record.json``: the steps and training seconds it took)."""
        return self.kept / f"step_{int(step)}.safetensors"

    @staticmethod
    def fresh_state() -> dict[str, Any]:
        return {"timesteps": 0, "evaluations": [], "rewards": [], "best": None, "snapshots": [],
                "sessions": 0, "train_seconds": 0.0, "finished": False}

    def load_state(self, path: Path | None = None) -> dict[str, Any]:
        path = path or self.state_file
        if not path.exists():
            return self.fresh_state()
        try:
            state = parse_json(path.read_bytes(), f"{path}: unreadable run state:", ConfigError)
        except OSError as err:
            raise ConfigError(f"{path}: unreadable run state ({err})") from None
        if not isinstance(state, dict) or not {"timesteps", "evaluations", "sessions"} <= state.keys():
            raise ConfigError(f"{path}: not a run state (expected a JSON object with timesteps, evaluations, "
                              "sessions)")
        return state

    def save_state(self, state: dict[str, Any]) -> None:
        atomic_write_text(self.state_file, json.dumps(state, indent=2))


def clear_run_folder(root: str | Path) -> list[str]:
    """Delete a previous run's own files (only in a run folder: see training/common/safety.py)."""
    path = Path(root)
    check_new_run_folder(path, overwrite=True)
    return clear_run_entries(path) if path.exists() else []


def read_run_config(run_dir: str | Path) -> dict[str, Any]:
    """The config saved in a run folder (for ``--resume``)."""
    folder = RunFolder(run_dir)
    if not folder.config.exists():
        raise ConfigError(f"{folder.root}: no config.yaml; is this a run folder?")
    from yokai_envs.training.common.yaml_io import read_yaml_file

    config = read_yaml_file(folder.config)
    if not isinstance(config, dict):
        raise ConfigError(f"{folder.config}: not a mapping of config keys")
    return config



_MISSING = object()


def _dig(tree: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(tree, dict) or key not in tree:
            return _MISSING
        tree = tree[key]
    return tree


def _slug(label: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in label).strip("_")


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
                 overwrite: bool = False, trust_pickles: bool = False) -> None:
        self.config = config
        self.folder = folder
        self.resume = resume
        self.overwrite = overwrite and not resume
        self.guard: SignalGuard = NoGuard()
        self.progress = config["output"]["progress_bar"] if progress is None else progress
        self.env_id: str = config["game"]["env_id"]
        self.options: dict[str, Any] = dict(config["game"]["options"])
        # Every check before anything is written or deleted: a refused run changes nothing.
        self.legacy_resume = False
        if resume:
            legacy = getattr(folder, "legacy_resume", None)
            if not folder.resume.exists() and legacy is not None and legacy.exists():
                if not trust_pickles:
                    from agents.model_file import TRUST_RISK

                    raise ConfigError(f"--resume: {folder.root} was saved as pickled SB3 zips by an older version "
                                      f"({legacy.relative_to(folder.root)}; {TRUST_RISK}); continue it with "
                                      "--trust-pickles only if you made it yourself")
                self.legacy_resume = True
            elif not folder.resume.exists():
                hint = ("; nothing was saved before it stopped: start afresh with --overwrite"
                        if is_run_folder(folder.root) else "")
                raise ConfigError(f"--resume: {folder.root} has no {folder.resume.relative_to(folder.root)} "
                                  f"to continue from{hint}")
            current = folder.load_state()
            # Continue from the checkpoint: what was recorded after it belongs to discarded steps.
            self.state = folder.load_state(folder.checkpoint_state) if folder.checkpoint_state.exists() else current
            if self.legacy_resume:
                assert legacy is not None
                self.resume_file = legacy
                # its self-play snapshots are pickles too: the pool starts again from new ones
                self.state["snapshots"] = [s for s in self.state.get("snapshots", []) if not s.endswith(".zip")]
            else:
                self.resume_file = self._committed_resume_file(self.state.get("checkpoint"))
                self._check_step_count(current)
            total = config["training"]["total_timesteps"]
            if current.get("finished") and current["timesteps"] >= total:
                raise ConfigError(f"--resume: the run in {folder.root} already finished at step "
                                  f"{current['timesteps']} (training.total_timesteps {total}); to train longer "
                                  "pass --set training.total_timesteps=N with a larger N")
            self._check_same_run(config)
            self.state["sessions"] = max(current.get("sessions", 0), self.state.get("sessions", 0))
            self.state["finished"] = False
        else:
            check_new_run_folder(folder.root, overwrite)
            self.state = folder.fresh_state()

    #: What a resumed run cannot change: the game and the network the checkpoint was built for.
    FIXED_ON_RESUME = (("game", "env_id"), ("game", "options"), ("algorithm", "name"), ("algorithm", "policy"),
                       ("algorithm", "network"), ("backend",))

    def _check_same_run(self, config: dict[str, Any]) -> None:
        if not self.folder.config.exists():
            return
        saved = read_run_config(self.folder.root)
        changed = []
        for path in self.FIXED_ON_RESUME:
            then, now = _dig(saved, path), _dig(config, path)
            if then is not _MISSING and then != now:
                changed.append(f"{'.'.join(path)}: {then!r} in the run, {now!r} now")
        if changed:
            raise ConfigError(f"--resume: {self.folder.root} was trained with another setup ({'; '.join(changed)}); "
                              "a checkpoint continues only with its own game and network: drop those --set / "
                              "--config changes, or start a new run in another --out")

    def _check_step_count(self, current: dict[str, Any]) -> None:
        """The step count of state.json is the checkpoint's own (only a checkpoint changes it, and
        it writes both): a count edited in either file is refused, not trained on."""
        if not self.folder.checkpoint_state.exists():
            return
        saved = self.state.get("checkpoint")
        counts = {"state.json": current.get("timesteps"), "checkpoints/state.json": self.state.get("timesteps")}
        if isinstance(saved, int) and any(count != saved for count in counts.values()):
            found = ", ".join(f"{name} says {count!r}" for name, count in counts.items())
            raise ConfigError(f"--resume: the step count was edited ({found}, its checkpoint was taken at step "
                              f"{saved}); the run cannot continue consistently: start afresh with --overwrite")

    def _committed_resume_file(self, step: Any) -> Path:
        """The training state the checkpoint's state.json belongs to: resume.safetensors, or the
        previous one when a kill came between writing it and the state (ConfigError when neither
        holds that step: the files were edited or mixed from different runs)."""
        folder = self.folder
        candidates = [p for p in (folder.resume, folder.resume_previous) if p.exists()]
        steps = {p: self.checkpoint_step(p) for p in candidates}
        if not isinstance(step, int) or all(s is None for s in steps.values()):
            return folder.resume  # a checkpoint that does not say its step (older runs, other backends)
        for path, held in steps.items():
            if held == step:
                return path
        found = ", ".join(f"{p.name} step {s}" for p, s in steps.items())
        raise ConfigError(f"--resume: {folder.checkpoint_state} is at step {step} but {found}: the state and the "
                          "training checkpoint disagree (edited, or copied from different runs), so the run "
                          "cannot continue consistently; start afresh with --overwrite")

    def checkpoint_step(self, path: Path) -> int | None:
        """The step a saved training state holds (None: this backend cannot tell)."""
        return None

    def prepare_folder(self) -> None:
        """Create (or clear, with --overwrite) the run folder; mark it; write the config; on
        --resume put back the best model of the checkpoint."""
        folder = self.folder
        if self.overwrite and folder.root.exists():
            clear_run_entries(folder.root)
        folder.root.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(folder.root)  # a kill mid-write leaves them; nothing reads them
        if self.resume and getattr(self, "resume_file", folder.resume) == folder.resume_previous:
            previous_card, card = folder.resume_previous.with_suffix(".json"), folder.resume.with_suffix(".json")
            for previous, committed in ((folder.resume_previous, folder.resume), (previous_card, card)):
                if previous.exists():
                    previous.replace(committed)  # back to the committed checkpoint
            self.resume_file = folder.resume
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
        return evaluation_seed(self.config)

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
            results = self.evaluate_policy(self.folder.model, evaluation["final_games"],
                                           seed=final_evaluation_seed(self.config), workers=evaluation["workers"])
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
        the trained opponent ``trained:model.safetensors;OPTIONS`` (SB3 checkpoints only)."""
        evaluation = self.config["evaluation"]
        if evaluation.get("search") is None or self.backend_name not in ("", "sb3"):
            return None
        spec = f"trained:{self.folder.model}" + (f";{evaluation['search']}" if evaluation["search"] else "")
        started = time.perf_counter()
        results = evaluate_spec(spec, self.env_id, self.options, list(evaluation["bots"]),
                                evaluation["search_games"], seed=final_evaluation_seed(self.config),
                                seats=evaluation["seats"], workers=evaluation["workers"])
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
        from yokai_envs.training.common.plot import plot_learning_curve

        suffix = f" ({self.backend_name})" if self.backend_name else ""
        with atomic_target(self.folder.curve) as tmp:
            plot_learning_curve(self.state, tmp, title=f"{self.env_id} {self.options or ''}{suffix}".strip())
