"""Analysis of played games: per-decision rows (:mod:`yokai_envs.analysis.trajectories`)."""

from yokai_envs.analysis.trajectories import TrajectoryError, export, game_rows, iter_decisions, trajectories

__all__ = ["TrajectoryError", "export", "game_rows", "iter_decisions", "trajectories"]
