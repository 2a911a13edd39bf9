"""The distributed path survives a lost node.

Ray's own multi-node harness (``ray.cluster_utils.Cluster``) starts a head node without CPUs
and two worker nodes with one CPU each, all on this machine, so every task and env runner
runs on a worker node. The arena spreads its games over both nodes and, when one node is
removed mid-run, finishes with every game played once and the local backend's exact results
(Ray retries the lost tasks). An RLlib run loses an env-runner node after its first checkpoint
and still finishes (RLlib's fault tolerance restarts the runner); a failure beyond that stops
with a checkpoint and a message saying how to resume.
"""

from __future__ import annotations

import json
import threading
import time

import pytest

ray = pytest.importorskip("ray", reason="ray[rllib] is not installed (pip install 'yokai-envs[ray]')")

from yokai_envs.cli import main as yokai_main  # noqa: E402

QUICK = "configs/yonkai_no_yokai/quick.yaml"


@pytest.fixture
def cluster():
    """A head (no CPUs) and two one-CPU worker nodes; ``cluster.workers`` lists the two."""
    from ray.cluster_utils import Cluster

    had_local = ray.is_initialized()  # the session's ray_local instance: put back afterwards
    if had_local:
        ray.shutdown()
    harness = Cluster(initialize_head=True, head_node_args={"num_cpus": 0})
    harness.workers = [harness.add_node(num_cpus=1), harness.add_node(num_cpus=1)]
    harness.wait_for_nodes()
    ray.init(address=harness.address, log_to_driver=False, configure_logging=False)
    yield harness
    ray.shutdown()
    harness.shutdown()
    if had_local:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)


def _busy_nodes() -> int:
    """Worker nodes whose CPU is all in use right now."""
    from ray._private.state import available_resources_per_node

    nodes = [n for n in ray.nodes() if n["Alive"] and n["Resources"].get("CPU", 0) > 0]
    free = available_resources_per_node()
    return sum(1 for n in nodes if free.get(n["NodeID"], {}).get("CPU", 0) == 0)


def _in_thread(target, *args):
    outcome: dict = {}

    def run():
        try:
            outcome["value"] = target(*args)
        except BaseException as err:  # handed to the test
            outcome["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, outcome


def _wait(condition, thread, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert thread.is_alive(), "the run ended before the condition held"
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


@pytest.mark.slow
def test_evaluate_on_a_cluster_spreads_games_and_survives_losing_a_node(cluster, tmp_path):
    games = 96
    base = ["evaluate", "--game", "yonkai_no_yokai_v1", "--env-kwargs", '{"num_players": 4}',
            "--agents", "heuristic,random", "--games", str(games), "--seed", "5", "--no-progress"]
    thread, outcome = _in_thread(yokai_main, [*base, "--backend", "ray", "--ray-address", cluster.address,
                                              "--out", str(tmp_path / "ray")])
    _wait(lambda: _busy_nodes() == 2, thread)  # games running on both worker nodes at once
    assert thread.is_alive()
    cluster.remove_node(cluster.workers[1])  # mid-run: its tasks are lost and retried on the other
    thread.join(timeout=600)
    assert outcome == {"value": 0}, outcome
    assert len([n for n in ray.nodes() if n["Alive"]]) == 2

    assert yokai_main([*base, "--out", str(tmp_path / "local")]) == 0
    on_ray = json.loads((tmp_path / "ray" / "results.json").read_text())
    local = json.loads((tmp_path / "local" / "results.json").read_text())
    assert on_ray["pairings"] == local["pairings"] and on_ray["ratings"] == local["ratings"]
    played = [json.loads(line) for line in (tmp_path / "ray" / "games.jsonl").read_text().splitlines()]
    indices = [g["index"] for g in played]
    assert len(indices) == len(set(indices)) >= games  # every game once, none twice
    strip = [{k: v for k, v in g.items() if k != "seconds"} for g in played]
    local_games = [json.loads(line) for line in (tmp_path / "local" / "games.jsonl").read_text().splitlines()]
    assert sorted(strip, key=lambda g: g["index"]) == sorted(
        ({k: v for k, v in g.items() if k != "seconds"} for g in local_games), key=lambda g: g["index"])


TINY_RLLIB = ["backend=rllib", "training.total_timesteps=2000", "training.n_envs=2",
              "algorithm.hyperparameters.n_steps=100", "algorithm.hyperparameters.batch_size=100",
              "algorithm.hyperparameters.n_epochs=1", "algorithm.network.net_arch=[16]", "evaluation.every=0",
              "evaluation.games=2", "evaluation.final_games=2", "evaluation.bots=[random]", "evaluation.best_by=random",
              "output.checkpoint_every=400", "output.progress_bar=false", "rllib.num_env_runners=2"]


@pytest.mark.slow
def test_rllib_training_survives_losing_an_env_runner_node(cluster, tmp_path):
    pytest.importorskip("ray.rllib")
    from yokai_envs.training.common.config import load_config
    from yokai_envs.training.rllib_backend.trainer import RLlibTrainer

    out = tmp_path / "run"
    config = load_config(QUICK, [*TINY_RLLIB, f"rllib.address={cluster.address}"], out=str(out))
    trainer = RLlibTrainer(config)
    thread, outcome = _in_thread(trainer.run)
    _wait(lambda: (out / "checkpoints" / "state.json").is_file(), thread)
    stepped = json.loads((out / "checkpoints" / "state.json").read_text())["timesteps"]
    assert 0 < stepped < 2000
    cluster.remove_node(cluster.workers[1])  # one of the two env runners goes with it
    thread.join(timeout=900)
    assert "error" not in outcome, outcome.get("error")
    state = json.loads((out / "state.json").read_text())
    assert state["finished"] and state["timesteps"] >= 2000
    import agents

    agents.make(f"rllib:{out / 'model'};trusted=true", "yonkai_no_yokai_v1", {"num_players": 4})


def test_a_cluster_failure_beyond_fault_tolerance_stops_with_a_checkpoint(tmp_path, monkeypatch, capsys):
    """When Ray raises out of a training step (every runner lost), the run saves and says how
    to resume; the CLI exits 1 with that message. (Driven by a stand-in algorithm: losing the
    last node of a real cluster makes RLlib wait for a runner rather than fail.)"""
    pytest.importorskip("ray.rllib")
    from ray.exceptions import RayActorError

    from yokai_envs.training.rllib_backend import trainer as rllib_trainer

    saved: list[int] = []

    class LostAlgorithm:
        def train(self):
            raise RayActorError()

        def stop(self):
            pass

    class StandIn(rllib_trainer.RLlibTrainer):
        def run(self):  # the real run() with the algorithm swapped for one whose runners are gone
            monkeypatch.setattr(rllib_trainer, "start_ray", lambda config: False)
            monkeypatch.setattr(rllib_trainer, "build_algorithm_config",
                                lambda config: type("C", (), {"build_algo": lambda self: LostAlgorithm()})())
            monkeypatch.setattr(self, "save_checkpoints", lambda: saved.append(self.state["timesteps"]))
            return super().run()

    monkeypatch.setattr(rllib_trainer, "RLlibTrainer", StandIn)
    out = tmp_path / "run"
    code = yokai_main(["train", "--config", QUICK, "--out", str(out),
                       *[a for item in TINY_RLLIB for a in ("--set", item)]])
    assert code == 1 and saved == [0]
    err = capsys.readouterr().err
    assert "yokai train: error: the Ray cluster failed during training (RayActorError" in err
    assert f"checkpoint saved at step 0; continue with yokai train --resume --out {out}" in err
    assert (out / "config.yaml").is_file()
