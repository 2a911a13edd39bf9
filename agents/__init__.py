"""Baseline bots, trained-policy adapters and the arena."""

from agents.base import Agent, RandomAgent

__all__ = ["Agent", "RandomAgent"]
