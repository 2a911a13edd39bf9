"""YOKAIZO: a two-player yokai trading-card game (rules, card pool, encoding)."""
