"""Every example script at a tiny budget on every configuration (tests/interop/configs.py), its
game options given with the flags the scripts share (yokai_envs/envs/example_flags.py)."""

from __future__ import annotations

import argparse
import runpy
from pathlib import Path

import pytest

from tests.interop.configs import PARAMS
from yokai_envs.envs.example_flags import add_game_flags, flags_for, game_options

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TINY = {
    "cleanrl_masked_ppo.py": ["--total-timesteps", "16", "--num-envs", "1", "--num-steps", "16",
                              "--num-minibatches", "1", "--update-epochs", "1"],
    "tianshou_multiagent.py": ["--epochs", "1", "--steps-per-epoch", "10", "--envs", "1"],
    "openspiel_ismcts.py": ["--games", "1", "--simulations", "2"],
}
NEEDS = {"cleanrl_masked_ppo.py": "torch", "tianshou_multiagent.py": "tianshou", "openspiel_ismcts.py": "pyspiel"}


def test_the_flags_round_trip_and_a_game_without_the_option_refuses_it() -> None:
    parser = argparse.ArgumentParser()
    add_game_flags(parser)
    options = {"num_players": 3, "mode": "coop", "difficulty": 2}
    assert game_options(parser.parse_args(flags_for(options))) == options
    assert game_options(parser.parse_args([])) == {}
    with pytest.raises(ValueError, match="no example flag"):
        flags_for({"variant": "book"})


@pytest.mark.slow  # 21 tiny runs, in this process
@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("script", sorted(TINY))
@pytest.mark.parametrize(("env_id", "options"), PARAMS)
def test_every_example_runs_on_every_configuration(script: str, env_id: str, options: dict) -> None:
    pytest.importorskip(NEEDS[script])
    main = runpy.run_path(str(EXAMPLES / script))["main"]
    summary = main(["--env", env_id, *flags_for(options), *TINY[script]])
    assert summary["env"] == env_id
