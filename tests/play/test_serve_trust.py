"""A request cannot make the server trust a pickled model: ``trusted=true`` is refused whatever
``--allow-files`` says (the option exists for the command line's own user)."""

from __future__ import annotations

import pytest

from yokai_envs.play.serve import ApiError
from yokai_envs.play.serve_limits import check_opponent


@pytest.mark.parametrize("spec", ["policy:{model};trusted=true", "trained:{model};trusted=true",
                                  "ismcts:rollout=heuristic;policy={model};trusted=true"])
def test_trusted_is_refused_from_a_request_even_with_allow_files(tmp_path, spec):
    model = tmp_path / "model.zip"
    model.write_bytes(b"PK\x03\x04 pickles")
    with pytest.raises(ApiError, match="trusted=true is not taken from a request"):
        check_opponent(spec.format(model=model), "yonkai_no_yokai_v1", {"num_players": 3}, allow_files=True)
