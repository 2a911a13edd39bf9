"""Debian's headless chromium for the page tests: where it is, its flags, and the skip mark."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists() and not shutil.which("chromium"),
                                    reason="headless test needs Debian's chromium (apt-get install -y chromium)")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0", "--window-size=1280,1000"]


def binary() -> str:
    return CHROMIUM if Path(CHROMIUM).exists() else str(shutil.which("chromium"))


def run_chromium(tmp_path: Path, url: str, *extra: str) -> tuple[str, str]:
    """Run chromium on ``url`` to the end (``--dump-dom``, ``--screenshot=...``): (stdout, stderr)."""
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    done = subprocess.run([binary(), *FLAGS, f"--user-data-dir={profile}", *extra, url],
                          capture_output=True, text=True, timeout=120)
    return done.stdout, done.stderr
