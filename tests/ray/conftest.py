"""A local Ray instance (2 CPUs) shared by the tests that need one; started on first use."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def ray_local():
    ray = pytest.importorskip("ray", reason="ray[rllib] is not installed (pip install 'yokai-envs[ray]')")
    started = not ray.is_initialized()
    if started:
        # "local": always a fresh instance; another xdist worker's cluster on this machine would be joined otherwise
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    if started:
        ray.shutdown()
