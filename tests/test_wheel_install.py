"""Installed from a wheel (not editable, no checkout in sight), the package has its ready
configs and the CLI's main commands work: exploit, train --check, evaluate."""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "yokai_envs", "agents", "configs")
TINY = ["training.total_timesteps=64", "training.n_envs=1", "algorithm.hyperparameters.n_steps=32",
        "algorithm.hyperparameters.batch_size=32", "algorithm.hyperparameters.n_epochs=1",
        "algorithm.network.net_arch=[8]", "evaluation.every=0", "evaluation.final_games=4",
        "output.checkpoint_every=64", "output.progress_bar=false", "output.tensorboard=false",
        "game.options={num_players: 3, rounds_per_game: 1}"]


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{' '.join(args)}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.slow  # a wheel build, a venv and four commands: about a minute
def test_the_wheel_installs_and_its_commands_run_without_a_checkout(tmp_path: Path) -> None:
    source = tmp_path / "src"  # a copy, so the build leaves nothing in the checkout
    for name in SOURCES:
        item = ROOT / name
        if item.is_dir():
            shutil.copytree(item, source / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            source.mkdir(exist_ok=True)
            shutil.copy(item, source / name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels),
          str(source)], tmp_path, env)
    (wheel,) = wheels.glob("yokai_envs-*.whl")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], tmp_path, env)
    python = venv / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q", str(wheel)],
         tmp_path, env)
    # the dependencies from this environment, after the venv's own packages (so not its editable install)
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    Path(purelib, "main_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    work = tmp_path / "elsewhere"
    work.mkdir()
    where = _run([str(python), "-c", "import yokai_envs; print(yokai_envs.__file__)"], work, env)
    assert where.startswith(str(venv)), where
    yokai = str(venv / "bin" / "yokai")
    checked = _run([yokai, "train", "--config", "configs/yonkai_no_yokai/quick.yaml", "--check"], work, env)
    assert "yonkai_no_yokai_v1" in checked
    played = _run([yokai, "evaluate", "--game", "yonkai_no_yokai_v1", "--agents", "L=lowest,random",
                   "--games", "4", "--seed", "0"], work, env)
    assert "| L |" in played
    report = _run([yokai, "exploit", "--agent", "random", "--game", "yonkai_no_yokai_v1", "--out",
                   str(work / "br"), "--no-progress", *[a for item in TINY for a in ("--set", item)]], work, env)
    assert "fair share of the table" in report and (work / "br" / "exploit.json").is_file()
    assert '"budget": 64' in (work / "br" / "exploit.json").read_text()  # the request, not a default
