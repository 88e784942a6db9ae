"""The demo table plays the game: it throws what the game waits for, once, and waits while
the players choose."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from dicecam.errors import InputError
from dicecam.vision.demo import DemoSource, DemoThrow
from dicecam.webapp.journal.sqlite import GameStore
from dicecam.webapp.session.demo_table import DemoDirector
from dicecam.webapp.session.game_session import GameSession
from dicecam.webapp.session.tablet_commands import Act, EnterRoll, NewGame, parse_enter_roll


@pytest.fixture
def session(tmp_path: Path) -> GameSession:
    return GameSession(GameStore(tmp_path / "games.sqlite"), lambda event, payload: None)


def entered(*dice: tuple[int, str]) -> EnterRoll:
    return parse_enter_roll({"dice": [{"value": v, "colour": c} for v, c in dice]})


def test_dice_party_parties_are_thrown_by_themselves_one_after_another(
        session: GameSession) -> None:
    director = DemoDirector(session)
    assert director() is None  # no game, nothing to throw
    session.new_game(NewGame("diceparty", {"players": ["Anna", "Ben"]}))
    assert director.waiting() == "auto"
    throw = director()
    assert throw is not None and Counter(throw.colours) == {"yellow": 2, "orange": 2}
    assert director() is None and director.waiting() is None  # thrown once, not again
    session.enter_roll(entered((6, "yellow"), (6, "yellow"), (5, "orange"), (5, "orange")))
    assert director() is not None  # Ben's preparty throw
    session.enter_roll(entered((1, "yellow"), (1, "yellow"), (1, "orange"), (1, "orange")))
    assert Counter(director().colours) == {"yellow": 2, "orange": 2}  # Anna's turn
    session.enter_roll(entered((1, "yellow"), (1, "yellow"), (1, "orange"), (1, "orange")))
    assert director() is None  # Anna chooses (pickpocket...) before anything is thrown
    session.act(Act({"type": "pickpocket", "count": 0}))
    assert director() is None


def test_v6_throws_again_only_when_a_tablet_asks(session: GameSession) -> None:
    director = DemoDirector(session)
    with pytest.raises(InputError, match="waits for no dice"):
        director.request()
    session.new_game(NewGame("v6", {"players": ["Ann", "Bo"], "seating": "in_order"}))
    session.act(Act({"type": "jokers", "jokers": []}))
    assert director() == DemoThrow((None,), (None,))  # the croupier's free throw
    session.enter_roll(entered((4, "white")))
    assert director.waiting() == "ask" and director() is None  # go on, stop or a joker
    assert director.request() == {"throwing": True}
    assert director.waiting() == "auto"
    assert director() == DemoThrow((None,), (None,))
    with pytest.raises(InputError, match="has thrown"):
        director.request()


def test_charidice_keeps_the_kept_dice_as_they_lie(session: GameSession) -> None:
    director = DemoDirector(session)
    session.new_game(NewGame("charidice", {"players": ["Ann", "Bo"]}))
    assert director() == DemoThrow((None,) * 6, (None,) * 6)
    colours = ["red", "blue", "green", "purple", "black", "grey"]
    session.enter_roll(entered(*zip([1, 2, 3, 4, 5, 6], colours, strict=True)))
    session.act(Act({"type": "keep", "kept": [1, 4]}))
    assert director() is None
    director.request()
    throw = director()
    assert throw is not None
    assert throw.colours[:2] == ("blue", "black") and throw.values[:2] == (2, 5)
    assert throw.colours[2:] == (None,) * 4


def test_the_directed_demo_throws_what_it_is_told_and_lies_still_between() -> None:
    asked = iter([None, DemoThrow(("red",) * 30 + ("yellow",) * 25), *[None] * 100])
    source = DemoSource("diceparty", director=lambda: next(asked))
    frames = list(itertools.islice(source.frames(), 80))
    assert (frames[0] == source._table).all()  # nothing asked: the empty table
    assert (frames[-1] == frames[-2]).all()  # the throw lies still until the next request
    dice = source._plan_throw(1, DemoThrow(("red",) * 30 + ("yellow",) * 25, (6,) * 55))
    assert len(dice) == 55
    assert Counter(d.look.colour_name for d in dice) == {"red": 30, "yellow": 25}
    assert {d.value for d in dice} == {6}
