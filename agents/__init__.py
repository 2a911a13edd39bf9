"""Baseline bots, trained-policy adapters and the arena.

``agents.make(spec, env_id)`` builds any agent from a spec string (see :mod:`agents.specs`).
"""

from agents.base import Agent, LowestAgent, RandomAgent
from agents.specs import make, parse_spec

__all__ = ["Agent", "LowestAgent", "RandomAgent", "make", "parse_spec"]
