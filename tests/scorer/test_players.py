"""A new game's players, checked alike for every game (``scorer/players.py``): the count
the game takes and names told apart as players tell them apart, said in the players'
language (issue 29, point 4)."""

from __future__ import annotations

from typing import Any

import pytest

from dicecam.errors import InputError
from dicecam.scorer.registry import game_names, get_game


def players(game: str, names: list[str]) -> list[Any]:
    """The page's config for ``game``: Dicetopia's players are objects with a name."""
    return [{"name": n} for n in names] if game == "dicetopia" else names


def refusal(game: str, names: list[str]) -> InputError:
    with pytest.raises(InputError) as raised:
        get_game(game).new_game({"players": players(game, names)})
    return raised.value


@pytest.mark.parametrize("game", game_names())
def test_names_alike_but_for_capitals_are_one_player(game: str) -> None:
    error = refusal(game, ["Anna", " anna "])
    assert error.message is not None and error.message.id == "setup.player_twice"
    assert error.message.text("en") == ("\u201cAnna\u201d and \u201c anna \u201d are the same "
                                        "name to dicecam (capitals do not count): give every "
                                        "player a name of their own.")
    assert error.message.text("de").startswith("\u201eAnna\u201c und \u201e anna \u201c sind "
                                               "für dicecam derselbe Name")
    get_game(game).new_game({"players": players(game, ["Anna", "Annabelle"])})


@pytest.mark.parametrize("game", game_names())
def test_too_few_and_too_many_players_are_said_in_both_languages(game: str) -> None:
    descriptor = get_game(game)
    none = refusal(game, [])
    assert none.message is not None
    assert none.message.text("en") == (f"This game needs at least {descriptor.min_players} "
                                       f"players: enter {descriptor.min_players} more names.")
    assert none.message.text("de") == (f"Dieses Spiel braucht mindestens "
                                       f"{descriptor.min_players} Spieler: gib noch "
                                       f"{descriptor.min_players} Namen ein.")
    one_short = refusal(game, [f"P{k}" for k in range(descriptor.min_players - 1)])
    assert "enter 1 more name." in str(one_short)
    crowd = refusal(game, [f"P{k}" for k in range(descriptor.max_players + 1)])
    assert crowd.message is not None
    assert crowd.message.text("en") == (f"This game takes at most {descriptor.max_players} "
                                        "players: remove 1 name.")
    assert crowd.message.text("de") == (f"Dieses Spiel erlaubt höchstens "
                                        f"{descriptor.max_players} Spieler: streiche 1 Namen.")


def test_a_stored_game_with_names_alike_still_replays() -> None:
    """Games stored before the check keep opening: replaying goes through the codec."""
    game = get_game("charidice")
    state = game.replay({"players": ["Anna", "anna"]}, [])
    names = [p["name"] for p in game.codec.state_to_json(state)["players"]]
    assert names == ["Anna", "anna"]
