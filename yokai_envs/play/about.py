"""What the new-game form says about each game beside its options: how many players each choice
of options seats (so the form offers the right seats, and no opponents for a Solo game)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any


@cache
def player_counts(env_id: str) -> dict[str, Any]:
    """``{"default": n, "option": name or None, "counts": {json(choice): n}}``: the seats of the
    game with its default options, and the one option whose choices change that number (Yonkai's
    ``num_players``, Onmyoji's ``mode``) with the number each choice gives."""
    from yokai_envs.play.serve import options_of
    from yokai_envs.registry import make_game

    default = make_game(env_id).num_players
    for name, spec in options_of(env_id).items():
        if spec["per_seat"] or len(spec["choices"]) < 2:
            continue
        counts = {}
        for choice in spec["choices"]:
            try:
                counts[json.dumps(choice)] = make_game(env_id, **{name: choice}).num_players
            except (ValueError, TypeError):
                break
        else:
            if len(set(counts.values())) > 1:
                return {"default": default, "option": name, "counts": counts}
    return {"default": default, "option": None, "counts": {}}
