"""The arena on Ray: scheduled games played as Ray tasks, on a local Ray instance or a cluster.

    yokai evaluate --game yonkai_no_yokai_v1 --agents heuristic,random --games 1000 --backend ray
    yokai evaluate ... --backend ray --ray-address ray://head-node:10001   # an existing cluster

Every game is still fully described by its :class:`~agents.arena.schedule.GameSpec` (deal
seed, agent seeds, seats), so the records are identical to the local backend's for the same
match seed, however the games are spread over tasks and nodes. Each task plays a chunk of
whole deals with one :class:`~agents.arena.play.Runner` (agents are built once per task).

Without ``--ray-address`` (and without ``RAY_ADDRESS`` set) a local Ray instance starts with
``num_cpus`` CPUs. On a cluster, every node needs the package installed
(``pip install 'yokai-envs[ray]'``) and any ``policy:``/``rllib:`` paths must be readable there.
"""

from __future__ import annotations

import os
from typing import Any

LOCAL_NUM_CPUS = 2
# Chunks per available CPU: enough to balance uneven game lengths, few enough that building
# the agents (a policy checkpoint load) in every task stays cheap.
CHUNKS_PER_CPU = 4


# How long a cluster address may take to accept a connection before the run gives up on it (Ray's
# own client retries for minutes without a word).
CONNECT_TIMEOUT = 10.0


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """ValueError unless ``address`` (``[ray://]host:port``; ``auto`` and other forms are left to
    Ray) accepts a TCP connection within ``timeout`` seconds."""
    import socket

    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except (OSError, ValueError) as err:
        timed_out = isinstance(err, TimeoutError | socket.timeout)
        why = "timed out" if timed_out else ((isinstance(err, OSError) and err.strerror) or str(err))
        raise ValueError(f"cannot reach the Ray cluster at {address!r} within {timeout:g} s ({why}); "
                         "check the address (head node host:port, or ray://host:10001) and that the cluster "
                         "is up") from None


def ensure_ray(address: str | None = None, num_cpus: int = LOCAL_NUM_CPUS) -> Any:
    """Connect to ``address`` (or ``RAY_ADDRESS``), or start a local instance; return the ray module."""
    try:
        import ray
    except ImportError:
        raise ImportError("the ray backend needs Ray: pip install 'yokai-envs[ray]'") from None
    if not ray.is_initialized():
        address = address or os.environ.get("RAY_ADDRESS")
        try:
            if address:
                check_reachable(address)
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, TimeoutError) as exc:
            where = f"the Ray cluster at {address!r}" if address else "a local Ray instance"
            raise ValueError(f"cannot connect to {where}: {exc}") from None
    return ray


def _play_chunk(game: Any, env_options: dict[str, Any], sources: dict[str, Any], keep_actions: bool,
                batches: list[list[Any]]) -> list[dict[str, Any]]:
    from agents.arena.play import init_worker, play_batch

    init_worker(game, env_options, sources, keep_actions)
    records: list[dict[str, Any]] = []
    for batch in batches:
        records.extend(play_batch(batch))
    return records


def play_on_ray(game: Any, env_options: dict[str, Any], sources: dict[str, Any], batches: list[list[Any]],
                keep_actions: bool, address: str | None = None, on_done: Any = None) -> list[dict[str, Any]]:
    """Play every batch (a list of GameSpecs of one deal) as Ray tasks; records in any order.

    ``on_done(records)`` is called with each chunk's records as it finishes (the progress bar,
    the journal)."""
    ray = ensure_ray(address)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    chunks = max(1, min(len(batches), cpus * CHUNKS_PER_CPU))
    # Deal batches dealt round-robin so every chunk gets a similar mix of tables.
    parts = [batches[i::chunks] for i in range(chunks)]
    task = ray.remote(num_cpus=1)(_play_chunk)
    pending = [task.remote(game, env_options, sources, keep_actions, part) for part in parts if part]
    records: list[dict[str, Any]] = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        chunk = ray.get(done[0])
        records.extend(chunk)
        if on_done is not None:
            on_done(chunk)
    return records

