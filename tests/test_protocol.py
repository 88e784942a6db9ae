"""Every registered game codec offers what the web app relies on."""

from __future__ import annotations

import pytest

from dicecam.errors import InputError
from dicecam.scorer.protocol import GAME_CODECS, load_codec

REQUIRED = ("TITLE", "new_game", "action_from_json", "action_to_json", "apply",
            "state_to_json", "action_from_roll")


@pytest.mark.parametrize("game", sorted(GAME_CODECS))
def test_codec_offers_the_protocol(game: str) -> None:
    codec = load_codec(game)
    missing = [name for name in REQUIRED if not hasattr(codec, name)]
    assert not missing, f"{game} codec lacks {missing}"


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="unknown game 'chess'"):
        load_codec("chess")
