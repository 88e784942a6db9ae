"""Every registered game offers what the web app and the command line rely on."""

from __future__ import annotations

import pytest

from dicecam.errors import InputError
from dicecam.scorer.registry import GAMES, get_game, scorers

REQUIRED = ("TITLE", "new_game", "action_from_json", "action_to_json", "apply",
            "state_to_json")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_codec_offers_the_protocol(game: str) -> None:
    codec = get_game(game).codec
    missing = [name for name in REQUIRED if not hasattr(codec, name)]
    assert not missing, f"{game} codec lacks {missing}"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_descriptor_names_the_facts_once(game: str) -> None:
    descriptor = get_game(game)
    assert descriptor.name == game
    assert descriptor.title == descriptor.codec.TITLE
    assert callable(descriptor.adapter)
    assert 1 <= descriptor.min_players <= descriptor.max_players
    assert game in descriptor.scorers
    assert descriptor.cases.is_file()
    state = descriptor.new_game({"players": ["Ann", "Ben"]} if game != "dicetopia" else
                                {"players": [{"name": "Ann"}, {"name": "Ben"}]})
    assert descriptor.codec.state_to_json(state)["legal"] is not None


def test_player_limits_are_the_engines() -> None:
    # the page's setup form reads these; they must be what new_game accepts
    for descriptor in GAMES.values():
        def config(n: int, game: str = descriptor.name) -> dict:
            names = [f"P{i}" for i in range(n)]
            return {"players": [{"name": p} for p in names] if game == "dicetopia" else names}
        descriptor.new_game(config(descriptor.max_players))
        descriptor.new_game(config(descriptor.min_players))
        with pytest.raises(InputError):
            descriptor.new_game(config(descriptor.max_players + 1))
        with pytest.raises(InputError):
            descriptor.new_game(config(descriptor.min_players - 1))


def test_every_scorer_is_a_game_or_its_sheet() -> None:
    assert sorted(scorers()) == ["charidice", "charidice-sheet", "diceparty", "dicetopia", "v6"]


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="unknown game 'chess'"):
        get_game("chess")
