"""Take docs/serve.png: a ``yokai serve`` game page in headless chromium.

    PYTHONPATH=. .venv/bin/python scripts/serve_screenshot.py [--out docs/serve.png]

A Yonkai 4-player game against three heuristics (seed 7), a few moves in, your turn. The PNG
is reduced to a 64-colour palette when Pillow is installed, so the committed file stays small.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from yokai_envs.cli.serve import make_server, server_url


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/serve.png")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as folder:
        server = make_server("127.0.0.1", 0, Path(folder) / "state")
        threading.Thread(target=server.serve_forever, daemon=True).start()
        session = server.store.create({"env_id": "yonkai_no_yokai_v1", "options": {"num_players": 4}, "seat": 0,  # type: ignore[attr-defined]
                                       "opponents": "heuristic", "seed": 7})
        for _ in range(2):  # two rounds of the table: a log and moves to show
            while session.game.current_player != 0:
                session.advance()
            session.act(session.game.legal_actions()[-1])
        while session.game.current_player != 0:
            session.advance()
        out = Path(args.out)
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={Path(folder) / 'profile'}", "--window-size=1200,860",
                        f"--screenshot={out.resolve()}", f"{server_url(server)}/games/{session.game_id}#auto=off"],
                       check=True, capture_output=True, timeout=120)
        server.shutdown()
    try:
        from PIL import Image
    except ImportError:
        return 0
    Image.open(out).convert("RGB").quantize(colors=64).save(out, optimize=True)
    print(f"wrote {out} ({out.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
