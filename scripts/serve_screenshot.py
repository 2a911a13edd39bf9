"""Take the screenshots of docs/serve.md: ``yokai serve``'s pages in headless chromium.

    PYTHONPATH=. .venv/bin/python scripts/serve_screenshot.py [--out-dir docs/img/serve]

The first page, then one game of each kind - Yonkai no Yokai (climbing, 4 players), YOKAIZO
(a trading card game) and Onmyoji (a boss battle, Duel) - against heuristics, each at its start,
in the middle and at its end screen. Every PNG is reduced to a 64-colour palette when Pillow is
installed, so the committed files stay small (< 150 KB each).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any

import numpy as np

from yokai_envs.cli.serve import make_server, server_url

# (name, create request, a page width and height, your moves before the middle shot)
GAMES = [("yonkai", {"env_id": "yonkai_no_yokai_v1", "options": {"num_players": 4, "rounds_per_game": 2}, "seat": 0,
                     "opponents": "heuristic", "seed": 7}, (1200, 900), 6),
         ("yokaizo", {"env_id": "yokaizo_v4", "options": {"decks": ["Kitsune Blaze", "Kappa Tide"]}, "seat": 0,
                      "opponents": "heuristic", "seed": 3}, (1200, 1000), 25),
         ("onmyoji", {"env_id": "onmyoji_v5", "options": {"mode": "duel"}, "seat": 0, "opponents": "heuristic",
                      "seed": 4}, (1200, 1000), 8)]


def _shoot(chromium: str, profile: Path, address: str, out: Path, size: tuple[int, int]) -> None:
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
                    f"--screenshot={out.resolve()}", address], check=True, capture_output=True, timeout=120)
    try:
        from PIL import Image
    except ImportError:
        return
    Image.open(out).convert("RGB").quantize(colors=64).save(out, optimize=True)
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB)")


def _to_my_turn(session: Any) -> None:
    while not session.game.is_over and session.game.current_player != session.seat:
        session.advance()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", default="docs/img/serve")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server = make_server("127.0.0.1", 0, Path(folder) / "state")
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base, profile = server_url(server), Path(folder) / "profile"
        _shoot(chromium, profile, f"{base}/", out / "home.png", (1000, 900))
        rng = np.random.default_rng(0)
        for name, request, size, moves in GAMES:
            session = server.store.create(dict(request))  # type: ignore[attr-defined]
            page = f"{base}/games/{session.game_id}#auto=off"
            _to_my_turn(session)
            _shoot(chromium, profile, page, out / f"{name}-start.png", size)
            for _ in range(moves):  # your moves picked at random, the heuristics answering
                _to_my_turn(session)
                if session.game.is_over:
                    break
                session.act(int(rng.choice(session.game.legal_actions())))
            _to_my_turn(session)
            _shoot(chromium, profile, page, out / f"{name}-middle.png", size)
            while not session.game.is_over:
                if session.game.current_player == session.seat:
                    session.act(int(rng.choice(session.game.legal_actions())))
                else:
                    session.advance()
            _shoot(chromium, profile, page, out / f"{name}-end.png", size)
        server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
