"""Named rule variants: the book's game by default, others only by name."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from yokai_envs.core.errors import ConfigError
from yokai_envs.registry import ENV_IDS, game_class


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_game_with_variants_defaults_to_the_book_and_refuses_unknown_names(env_id: str) -> None:
    cls = game_class(env_id)
    if "variant" not in cls.OPTIONS:
        assert not cls.VARIANTS, f"{env_id} names variants but has no variant option"
        return
    assert cls.OPTIONS["variant"] == "book"
    assert "book" not in cls.VARIANTS
    with pytest.raises(ConfigError, match="unknown variant 'nonsense'"):
        cls(variant="nonsense")


def test_unknown_variant_error_lists_the_valid_ones() -> None:
    base = game_class(ENV_IDS[0])

    class Varied(base):  # type: ignore[misc, valid-type]
        OPTIONS: ClassVar[dict[str, Any]] = {**base.OPTIONS, "variant": "book"}
        VARIANTS: ClassVar[dict[str, str]] = {"balanced": "a stated rule changed for balance"}

    with pytest.raises(ConfigError, match="valid variants: 'book', 'balanced'"):
        Varied(variant="house")
