"""One RLlib training run from a resolved config (``backend: rllib``).

The same YAML as the SB3 path: the MaskablePPO hyperparameter names are translated to
RLlib's PPO (``HYPERPARAMETERS``; ``target_kl`` becomes RLlib's adaptive-KL target, other
SB3-only keys are refused; ``critic_state`` and ``pretrain`` are ignored with a warning);
``training.n_envs`` envs are spread over
``rllib.num_env_runners`` Ray workers; ``training.total_timesteps`` counts env steps, i.e.
decisions of the seats RLlib plays (the learner's, and self-play snapshots'; bots play
inside the env). The run folder holds::

    config.yaml                 the resolved config
    state.json                  progress: steps, evaluation history, reward curve, best, snapshots
    model/                      the final policy        } agents.make("rllib:PATH", env_id)
    best_model/                 best by evaluation      }
    checkpoints/latest/         the latest policy
    checkpoints/algorithm/      the full RLlib algorithm (optimizer, snapshot modules) for --resume
    logs/                       TensorBoard events and progress.csv (logs/resume_K/ after a resume)
    learning_curve.png          episode reward and win rate vs each evaluation bot over steps
    eval.json                   the final arena table against the configured bots

RLlib saves with cloudpickle, so loading a checkpoint runs whatever code is in it. Each policy
folder and ``checkpoints/algorithm/`` is signed with this user's key as it is saved
(``yokai_signature.json``, yokai_envs/core/signing.py), and ``--resume`` restores only a
checkpoint whose signature holds for every file; any other (someone else's run, a file edited
since, a run saved before checkpoints were signed) needs ``--trust-pickles``.

Self-play: ``opponents.self_play.pool_size`` frozen copies of the learner live in the
algorithm as RLModules ``snapshot_0..`` (never trained); every ``snapshot_every`` steps the
learner's weights are copied into the next slot (round robin) and the envs start drawing
that slot, with the bots, by the configured weights. Co-op: every seat is the learner
(one shared policy).
"""

from __future__ import annotations

import importlib.util
import logging
import math
import os
import shutil
import time
import warnings
from pathlib import Path
from typing import Any

from yokai_envs.core.errors import ConfigError
from yokai_envs.core.signing import SigningError, sign_folder, signing_key
from yokai_envs.training.algorithms.ppo import ACTIVATION_CLASSES
from yokai_envs.training.common.run import RunBase, RunFolder
from yokai_envs.training.common.safety import RunInterrupted, RunStopped, atomic_copy, atomic_target

# MaskablePPO hyperparameter -> RLlib PPOConfig.training() argument.
HYPERPARAMETERS = {
    "learning_rate": "lr", "batch_size": "minibatch_size", "n_epochs": "num_epochs", "gamma": "gamma",
    "gae_lambda": "lambda_", "ent_coef": "entropy_coeff", "clip_range": "clip_param", "vf_coef": "vf_loss_coeff",
    "max_grad_norm": "grad_clip",
}
# n_steps sets the batch: n_steps x n_envs env steps per update, as in SB3.
BATCH_HYPERPARAMETER = "n_steps"
# SB3 stops an update's epochs early past target_kl; RLlib instead adapts a KL penalty
# towards kl_target. Same intent (small policy steps), not the same mechanism.
KL_HYPERPARAMETER = "target_kl"
SB3_DEFAULT_N_STEPS = 2048


class RLlibRunFolder(RunFolder):
    def __init__(self, root: str | Path) -> None:
        super().__init__(root)
        self.model = self.root / "model"
        self.best_model = self.root / "best_model"
        self.latest = self.root / "checkpoints" / "latest"
        self.resume = self.root / "checkpoints" / "algorithm"
        self.checkpoint_best = self.root / "checkpoints" / "best_model"


def check_rllib_config(config: dict[str, Any]) -> None:
    """What the rllib backend cannot do, reported before Ray starts."""
    errors = []
    algorithm = config["algorithm"]
    if algorithm["name"] != "MaskablePPO":
        errors.append(f"algorithm.name: the rllib backend runs PPO (write MaskablePPO), got {algorithm['name']!r}")
    if algorithm["network"]["critic_state"]:
        warnings.warn("algorithm.network.critic_state is ignored by the rllib backend: its critic sees the "
                      "seat's observation, like the actor", stacklevel=2)
    if config["pretrain"]["imitate"]:
        warnings.warn("pretrain.imitate is ignored by the rllib backend: behaviour cloning runs on the sb3 "
                      "backend only; RLlib starts from scratch", stacklevel=2)
    sb3_only = [key for key, on in (("reward", config.get("reward")),
                                    ("env.wrappers", config.get("env", {}).get("wrappers")),
                                    ("env.skip_forced", config.get("env", {}).get("skip_forced")),
                                    ("algorithm.network.pi", algorithm["network"].get("pi") is not None),
                                    ("algorithm.network.vf", algorithm["network"].get("vf") is not None)) if on]
    for key in sb3_only:
        errors.append(f"{key}: runs on the sb3 backend only; the rllib backend would ignore it")
    supported = [*HYPERPARAMETERS, BATCH_HYPERPARAMETER, KL_HYPERPARAMETER]
    for key in algorithm["hyperparameters"]:
        if key not in supported:
            errors.append(f"algorithm.hyperparameters.{key}: not supported by the rllib backend; "
                          f"supported: {', '.join(supported)}")
    if errors:
        raise ConfigError("invalid training config for backend rllib:\n  - " + "\n  - ".join(errors))


def start_ray(config: dict[str, Any]) -> bool:
    """Join the configured cluster or start a local instance; True when this call started Ray."""
    try:
        import ray
    except ImportError:
        raise ConfigError("backend: rllib needs Ray: pip install 'yokai-envs[ray]'") from None
    if ray.is_initialized():
        return False
    address = config["rllib"]["address"] or os.environ.get("RAY_ADDRESS")
    if address:
        from agents.arena.ray_backend import check_reachable

        try:
            check_reachable(address)
        except ValueError as err:
            raise ConfigError(f"rllib.address: {err}") from None
        ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    else:
        ray.init(num_cpus=config["rllib"]["num_cpus"], include_dashboard=False, log_to_driver=False,
                 logging_level=logging.WARNING)
    return True


def env_config(config: dict[str, Any]) -> dict[str, Any]:
    game, opponents = config["game"], config["opponents"]
    self_play = opponents["self_play"]
    return {
        "env_id": game["env_id"], "options": dict(game["options"]), "learner_seat": game["learner_seat"],
        "bots": [(b["spec"], b["weight"]) for b in opponents["bots"]],
        "snapshot_weight": self_play["weight"], "pool_size": self_play["pool_size"] if self_play["enabled"] else 0,
        "seed": config["training"]["seed"],
    }


def runner_layout(config: dict[str, Any]) -> tuple[int, int]:
    """(env runners, envs per runner)."""
    rllib = config["rllib"]
    runners = rllib["num_env_runners"]
    per_runner = rllib["num_envs_per_env_runner"] or math.ceil(config["training"]["n_envs"] / max(runners, 1))
    return runners, per_runner


def build_algorithm_config(config: dict[str, Any]) -> Any:
    """The RLlib PPOConfig for ``config`` (multi-agent, masked module, self-play slots)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from yokai_envs.training.rllib_backend.env import LEARNER, YokaiMultiAgentEnv, module_for_agent, snapshot_id
    from yokai_envs.training.rllib_backend.module import MaskedPPOTorchRLModule

    algorithm, training = config["algorithm"], config["training"]
    network = algorithm["network"]
    env_cfg = env_config(config)
    modules = [LEARNER, *(snapshot_id(k) for k in range(env_cfg["pool_size"]))]
    spec = RLModuleSpec(module_class=MaskedPPOTorchRLModule,
                        model_config={"fcnet_hiddens": list(network["net_arch"]),
                                      "fcnet_activation": ACTIVATION_CLASSES[network["activation"]],
                                      "vf_share_layers": False})
    runners, per_runner = runner_layout(config)
    hyper = dict(algorithm["hyperparameters"])
    n_steps = hyper.pop(BATCH_HYPERPARAMETER, SB3_DEFAULT_N_STEPS)
    target_kl = hyper.pop(KL_HYPERPARAMETER, None)
    train_args = {HYPERPARAMETERS[k]: v for k, v in hyper.items()}
    # No KL penalty unless target_kl asks for one: the clipped objective alone, like SB3's PPO.
    train_args["use_kl_loss"] = target_kl is not None
    if target_kl is not None:
        train_args["kl_target"] = float(target_kl)
    train_args["train_batch_size_per_learner"] = int(n_steps) * max(runners, 1) * per_runner
    train_args.setdefault("minibatch_size", min(64, train_args["train_batch_size_per_learner"]))
    return (PPOConfig()
            # RLlib's env checker steps random unmasked actions, which the game rejects by design.
            .environment(YokaiMultiAgentEnv, env_config=env_cfg, disable_env_checking=True)
            .env_runners(num_env_runners=runners, num_envs_per_env_runner=per_runner,
                         rollout_fragment_length="auto")
            .learners(num_learners=0)
            # A lost env runner (its node gone) is restarted where Ray finds room; meanwhile the
            # healthy runners keep sampling (tests/ray/test_multinode.py loses a node mid-run).
            .fault_tolerance(restart_failed_env_runners=True, ignore_env_runner_failures=False,
                             max_num_env_runner_restarts=1000, delay_between_env_runner_restarts_s=1.0,
                             env_runner_health_probe_timeout_s=30.0)
            .training(**train_args)
            .multi_agent(policies=set(modules), policy_mapping_fn=module_for_agent, policies_to_train=[LEARNER])
            .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=dict.fromkeys(modules, spec)))
            .debugging(seed=training["seed"]))


def _export_learner(learner: Any, path: str, env_id: str, options: dict[str, Any]) -> str:
    from agents.rllib_agent import save_rllib_policy

    save_rllib_policy(learner.module["learner"], path, env_id, options)
    return path


class RLlibTrainer(RunBase):
    """Runs (or resumes) the RLlib training described by ``config`` in its output folder."""

    backend_name = "rllib"

    def __init__(self, config: dict[str, Any], resume: bool = False, progress: bool | None = None,
                 overwrite: bool = False, trust_pickles: bool = False) -> None:
        if importlib.util.find_spec("ray") is None:
            raise ConfigError("backend: rllib needs ray[rllib]: pip install 'yokai-envs[ray]'")
        check_rllib_config(config)
        super().__init__(config, RLlibRunFolder(config["output"]["dir"]), resume, progress, overwrite,
                         trust_pickles)
        try:  # checkpoints are signed as they are saved: a key that cannot be read fails now, not then
            signing_key(create=True)
        except SigningError as err:
            raise ConfigError(str(err)) from None
        if resume:
            self.check_resume_checkpoint(trust_pickles)
        self.state.setdefault("snapshot_slots", [])
        self.algo: Any = None

    def check_resume_checkpoint(self, trust_pickles: bool) -> None:
        """ConfigError unless the algorithm checkpoint is this user's own, unchanged since it was
        saved, or ``--trust-pickles`` says to restore it anyway: restoring unpickles it."""
        from agents.model_file import RLLIB_CHECKPOINT, PickledModelError, require_signed_or_trusted

        folder = self.folder
        try:
            require_signed_or_trusted(folder.resume, trust_pickles, folder.resume, RLLIB_CHECKPOINT,
                                      how_to_trust=f"yokai train --resume --out {folder.root} --trust-pickles")
        except PickledModelError as err:
            raise ConfigError(f"--resume: {err}") from None

    # ------------------------------------------------------------------ main
    def run(self) -> dict[str, Any]:
        import torch

        config, folder, state = self.config, self.folder, self.state
        torch.set_num_threads(config["training"]["torch_threads"])
        self.prepare_folder()
        state["sessions"] += 1
        started_ray = start_ray(config)
        try:
            self.algo = build_algorithm_config(config).build_algo()
            if self.resume:
                self.algo.restore_from_path(str(folder.resume.resolve()))
                self._restore_snapshots()
            log_dir = folder.logs / f"resume_{state['sessions'] - 1}" if self.resume else folder.logs
            self.logger = _logger(config, log_dir)
            stop: KeyboardInterrupt | None = None
            try:
                self._learn()
            except KeyboardInterrupt as err:
                stop = err
                self.guard.stopping = True  # a second signal waits for the save below
            except Exception as err:
                if not _is_ray_error(err):
                    raise
                raise self._lost_cluster(err) from err
            self.save_checkpoints()
            if stop is not None:
                raise RunInterrupted(self.interrupted_message(f"at step {state['timesteps']}"),
                                     getattr(stop, "signal_number", 2))
            with self.guard.saving():
                self.export(folder.model)
            final = self.final_evaluation()
        finally:
            if self.algo is not None:
                self.algo.stop()
            if started_ray:
                import ray

                ray.shutdown()
        self.finish()
        return final

    def _learn(self) -> None:
        config, state = self.config, self.state
        total = config["training"]["total_timesteps"]
        every_eval = config["evaluation"]["every"]
        every_checkpoint = config["output"]["checkpoint_every"]
        self_play = config["opponents"]["self_play"]
        bar = None
        if self.progress:
            from tqdm import tqdm

            bar = tqdm(total=total, initial=min(state["timesteps"], total), unit="step", dynamic_ncols=True,
                       desc=f"train {self.env_id} (rllib)", smoothing=0.05)
        if every_eval and not state["evaluations"]:
            self.evaluate_now()  # the untrained policy: where the curve starts
        clock = time.perf_counter()
        try:
            while state["timesteps"] < total:
                before = state["timesteps"]
                result = self.algo.train()
                now = int(result.get("num_env_steps_sampled_lifetime", before))
                state["timesteps"] = now
                state["train_seconds"] += time.perf_counter() - clock
                self._log(result, now)
                if bar is not None:
                    bar.update(min(now, total) - min(before, total))
                if self_play["enabled"] and now >= self_play["start_after"] and \
                        _crossed(before, now, self_play["snapshot_every"]):
                    self.snapshot(now)
                if _crossed(before, now, every_eval) and now < total:  # at the end: the final evaluation
                    results = self.evaluate_now()
                    if bar is not None:
                        bar.set_postfix({f"win[{k}]": f"{v['win_rate']:.0%}" for k, v in results.items()})
                if _crossed(before, now, every_checkpoint):  # last: its state holds this step's evaluation
                    self.save_checkpoints()
                clock = time.perf_counter()
        finally:
            if bar is not None:
                bar.close()

    def _lost_cluster(self, err: BaseException) -> RunStopped:
        """Ray failed beyond what RLlib's fault tolerance recovers (e.g. every env-runner node
        lost): save what the driver holds, and say how to continue."""
        where = f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}".rstrip(": ")
        try:
            self.save_checkpoints()
            saved = f"checkpoint saved at step {self.state['timesteps']}"
        except Exception as save_err:  # the checkpoint needs the runners too: keep the last good one
            last = self.state.get("checkpoint")
            saved = (f"could not save a new checkpoint ({type(save_err).__name__}); the last one is at step {last}"
                     if last is not None else "no checkpoint was saved yet: start afresh with --overwrite")
        return RunStopped(f"the Ray cluster failed during training ({where}); {saved}; continue with "
                          f"yokai train --resume --out {self.folder.root}")

    def _log(self, result: dict[str, Any], step: int) -> None:
        runners = result.get("env_runners", {})
        learner = result.get("learners", {}).get("learner", {})
        returns = runners.get("module_episode_returns_mean", {})
        mean_return = returns.get("learner") if isinstance(returns, dict) else None
        if mean_return is not None and not math.isnan(float(mean_return)):
            self.state["rewards"].append([step, float(mean_return)])
            self.logger.record("rollout/ep_rew_mean", float(mean_return))
        for key, name in (("episode_len_mean", "rollout/ep_len_mean"),
                          ("num_env_steps_sampled_lifetime_throughput", "time/env_steps_per_s")):
            if isinstance(runners.get(key), int | float):
                self.logger.record(name, float(runners[key]))
        for key in ("policy_loss", "vf_loss", "entropy", "mean_kl_loss", "vf_explained_var"):
            if isinstance(learner.get(key), int | float):
                self.logger.record(f"train/{key}", float(learner[key]))
        self.logger.record("time/total_timesteps", step)
        self.logger.record("time/iteration", int(result.get("training_iteration", 0)))
        self.logger.dump(step)

    # ------------------------------------------------------------------ pieces
    def export(self, path: Path) -> Path:
        """The learner's module as a policy folder (``rllib:PATH``), renamed into place whole."""
        env_id, options = self.env_id, self.options
        with atomic_target(path) as tmp:
            target = str(tmp.resolve())
            self.algo.learner_group.foreach_learner(lambda learner: _export_learner(learner, target, env_id, options))
        return path

    def save_checkpoints(self) -> None:
        with self.guard.saving():
            self.export(self.folder.latest)
            with atomic_target(self.folder.resume) as tmp:
                self.algo.save_to_path(str(tmp.resolve()))
                sign_folder(tmp)
            self.commit_checkpoint()

    def snapshot(self, step: int) -> None:
        """Copy the learner's weights into the next snapshot slot; the envs start drawing it."""
        from yokai_envs.training.rllib_backend.env import LEARNER, snapshot_id

        state = self.state
        pool_size = self.config["opponents"]["self_play"]["pool_size"]
        slot = len(state["snapshots"]) % pool_size
        group = self.algo.learner_group
        weights = group.get_state(components=f"learner/rl_module/{LEARNER}")["learner"]["rl_module"][LEARNER]
        # The learner group keeps the snapshot too (it goes into checkpoints/algorithm for --resume).
        group.set_state({"learner": {"rl_module": {snapshot_id(slot): weights}}})
        # Straight into every env runner's module: RLlib's sync_weights skips runners whose weights
        # sequence number is already current, which it is right after a training iteration.
        module_id = snapshot_id(slot)
        self.algo.env_runner_group.foreach_env_runner(lambda runner: _load_weights(runner, module_id, weights))
        state["snapshots"].append(f"step_{step}@{snapshot_id(slot)}")
        if slot not in state["snapshot_slots"]:
            state["snapshot_slots"].append(slot)
        self._push_pool()
        self.folder.save_state(state)

    def _restore_snapshots(self) -> None:
        """After --resume: the snapshot weights from the restored learner group into every env runner."""
        from yokai_envs.training.rllib_backend.env import snapshot_id

        group = self.algo.learner_group
        for slot in self.state["snapshot_slots"]:
            module_id = snapshot_id(slot)
            weights = group.get_state(components=f"learner/rl_module/{module_id}")["learner"]["rl_module"][module_id]
            self.algo.env_runner_group.foreach_env_runner(lambda runner, m=module_id, w=weights:
                                                          _load_weights(runner, m, w))
        self._push_pool()

    def _push_pool(self) -> None:
        from yokai_envs.training.rllib_backend.env import set_pool_everywhere

        slots = list(self.state["snapshot_slots"])
        self.algo.env_runner_group.foreach_env_runner(lambda runner: set_pool_everywhere(slots))

    def evaluate_now(self) -> dict[str, dict[str, Any]]:
        evaluation = self.config["evaluation"]
        with self.guard.saving():
            self.export(self.folder.latest)
        results = self.evaluate_policy(self.folder.latest, evaluation["games"], seed=self.eval_seed())
        self.record_evaluation(results)
        return results

    def evaluate_policy(self, path: Path, games: int, seed: int, workers: int | None = None,
                        references: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
        evaluation = self.config["evaluation"]
        extra: dict[str, Any] = {} if workers is None else {"workers": workers}
        return evaluate_rllib_policy(str(path), self.env_id, self.options, list(evaluation["bots"]), games, seed=seed,
                                     seats=evaluation["seats"], deterministic=evaluation["deterministic"], **extra)

    def copy_policy(self, source: Path, target: Path) -> None:
        atomic_copy(source, target)

    def remove_policy(self, path: Path) -> None:
        shutil.rmtree(path, ignore_errors=True)

    def current_step(self) -> int:
        return int(self.state["timesteps"])

    def metrics_logger(self) -> Any:
        return self.logger

    def policy_label(self, path: Path) -> str:
        return f"rllib:{path}"


def evaluate_rllib_policy(path: str, env_id: str, options: dict[str, Any], bots: list[str], games: int, seed: int,
                          seats: str | list[int] = "all", deterministic: bool = True,
                          workers: int = 1) -> dict[str, dict[str, Any]]:
    """The arena table of an ``rllib:`` policy, in the same shape as the SB3 path's
    :func:`yokai_envs.training.common.evaluate.evaluate_checkpoint`."""
    from yokai_envs.training.common.evaluate import evaluate_spec

    # The run evaluates only folders this process has just saved, so their pickles are its own.
    # (Not the signature check: arena workers on other Ray nodes may hold another key, or none.)
    spec = f"rllib:{path};trusted=true" + ("" if deterministic else ";deterministic=false")
    return evaluate_spec(spec, env_id, options, bots, games, seed, seats, workers)


def _load_weights(runner: Any, module_id: str, weights: dict[str, Any]) -> None:
    module = runner.module[module_id]
    own = module.get_state()  # an inference-only module holds a subset of the learner's weights
    module.set_state({key: value for key, value in weights.items() if key in own})


def _is_ray_error(err: BaseException) -> bool:
    try:
        from ray.exceptions import RayError
    except ImportError:
        return False
    return isinstance(err, RayError)


def _crossed(before: int, now: int, every: int) -> bool:
    """True when the step counter passed a multiple of ``every`` between ``before`` and ``now``."""
    return every > 0 and now // every > before // every


def _logger(config: dict[str, Any], log_dir: Path) -> Any:
    """SB3's logger, so the logs look like the SB3 path's (progress.csv, TensorBoard events)."""
    from stable_baselines3.common.logger import configure

    output = config["output"]
    formats = [f for f, on in (("csv", output["csv"]), ("tensorboard", output["tensorboard"])) if on]
    return configure(str(log_dir), formats)
