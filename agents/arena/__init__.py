"""The arena: seat-balanced matches on duplicate deals, win rates with confidence intervals,
ratings, and result files. ``run_match`` is the Python API; ``yokai evaluate`` the CLI."""

from agents.arena.match import MatchResult, run_match
from agents.arena.report import markdown, write_outputs
from agents.arena.stats import wilson_interval

__all__ = ["MatchResult", "markdown", "run_match", "wilson_interval", "write_outputs"]
