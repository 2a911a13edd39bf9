"""People at the table: ``yokai play`` (a human seat in the terminal), replay files, and
``yokai replay`` (step through a game in the terminal or as one self-contained HTML page), and
``yokai serve`` (play the bots in a browser: :mod:`yokai_envs.play.serve`, docs/serve.md).

Replay files are written with :func:`save_replay` (by ``play``, ``evaluate --save-replays`` and
anyone holding a finished Game) and read with :func:`load_replay`.
"""

from yokai_envs.play.replay import Replay, ReplayError, load_replay, replay_digest, save_replay, state_digest

__all__ = ["Replay", "ReplayError", "load_replay", "replay_digest", "save_replay", "state_digest"]
