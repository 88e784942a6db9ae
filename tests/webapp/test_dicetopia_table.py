"""Dicetopia's endgame table at the camera: the demo lays it out, the boards marked on the
tablet place every die, and the roll scores the dice where they lie."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from dicecam.reading import DieReading, SettledRoll
from dicecam.scorer.registry import get_game
from dicecam.vision.sources.demo import DemoThrow
from dicecam.vision.sources.demo_boards import DemoLayout
from dicecam.webapp.journal.sqlite import GameStore
from dicecam.webapp.session.demo_table import DemoDirector, demo_layout
from dicecam.webapp.session.game_session import GameSession
from dicecam.webapp.session.tablet_commands import (
    Act,
    ConfirmRoll,
    CorrectDie,
    NewGame,
    OpenGame,
    parse_set_zones,
)

#: the city map's rectangle (600 x 400 units at 1 px) and the two faction boards
CITY = [20, 40, 620, 440]
ANN = [650, 40, 950, 160]
BO = [650, 200, 950, 320]


def session_at(path: Path) -> GameSession:
    return GameSession(GameStore(path / "games.sqlite"), lambda event, payload: None)


@pytest.fixture
def session(tmp_path: Path) -> GameSession:
    return session_at(tmp_path)


def die(x: float, y: float, value: int | None = 4, colour: str = "white",
        confidence: float = 0.99) -> DieReading:
    return DieReading(x=x, y=y, w=30.0, h=30.0, value=value, colour=colour,
                      confidence=confidence)


def mark_boards(session: GameSession) -> None:
    session.set_zones(parse_set_zones({"width": 960, "height": 540, "zones": [
        {"name": "city", "rect": CITY}, {"name": "board:Ann", "rect": ANN},
        {"name": "board:Bo", "rect": BO}]}))


def test_the_demo_lays_out_the_endgame_of_the_game_played(session: GameSession) -> None:
    director = DemoDirector(session)
    dicetopia = director.opening("dicetopia")
    assert dicetopia() is None  # no game yet
    session.new_game(NewGame("dicetopia", {"players": [{"name": "Ann"}, {"name": "Bo"}]}))
    laid = dicetopia()
    game = get_game("dicetopia")
    assert isinstance(laid, DemoLayout)
    assert laid == demo_layout(game.table_due(game.codec.new_game(
        {"players": [{"name": "Ann"}, {"name": "Bo"}]})), serial=1)
    assert dicetopia() == laid  # asked again: the same table, which stays lying
    assert director.waiting() is None  # nothing to throw: the panel says no "throwing"
    # a new game of the same players: the same table, laid anew (a roll to read again)
    session.new_game(NewGame("dicetopia", {"players": [{"name": "Ann"}, {"name": "Bo"}]}))
    assert dicetopia() == replace(laid, serial=2)
    # a later opening (another game) takes over; a throwing game still throws
    charidice = director.opening("charidice")
    assert dicetopia() is None
    session.new_game(NewGame("charidice", {"players": ["Ann", "Bo"]}))
    assert isinstance(charidice(), DemoThrow)


def test_boards_marked_on_the_picture_place_every_die(session: GameSession) -> None:
    session.new_game(NewGame("dicetopia", {"players": [{"name": "Ann"}, {"name": "Bo"}]}))
    dice = (
        die(120, 140, 6, "purple"),  # the city's top left: The Agency
        die(520, 340, 2, "turquoise"),  # bottom right: Nethal Syndicate
        *(die(680 + 45 * k, 100, k + 1, "white") for k in range(6)),  # Ann's board
        die(700, 260, 5, "purple"),  # Bo's board
        die(800, 480, 3, "white"),  # beside the boards
    )
    roll = session.settle(SettledRoll(roll_id=1, width=960, height=540, dice=dice))
    assert roll.status.value == "shown"  # nothing marked: no die lies in a zone
    assert roll.summary is not None and roll.summary.id == "dt.roll_no_zones"
    mark_boards(session)
    view = session.view()
    # the city map is one drawn rectangle, with its six districts placed in it
    city = view["zones"]["zones"][0]
    assert city["name"] == "city"
    assert [p["name"] for p in city["parts"]] == [
        "the_agency", "the_gugu_airforce", "waste_management", "twilight_congress",
        "observatory_bank", "nethal_syndicate"]
    assert [z["name"] for z in view["zones"]["zones"][1:]] == ["board:Ann", "board:Bo"]
    # the waiting roll, judged again with its dice where they lie, is scored
    roll = session.roll_payload()
    assert roll is not None and roll["status"] == "applied"
    assert [d["zone"] for d in roll["dice"]] == (
        ["the_agency", "nethal_syndicate"] + ["board:Ann"] * 6 + ["board:Bo", None])
    assert roll["summary"]["msg"] == "dt.roll_zones"
    table = view_state(session)["table"]["zones"]
    assert table["the_agency"] == [{"colour": "purple", "value": 6}]
    assert [d["value"] for d in table["board:Ann"]] == [1, 2, 3, 4, 5, 6]
    assert table["board:Bo"] == [{"colour": "purple", "value": 5}]
    ann = next(p for p in view_state(session)["players"] if p["name"] == "Ann")
    assert ann["loot"] == 21


def test_an_agent_taken_for_a_die_is_asked_and_struck(session: GameSession) -> None:
    session.new_game(NewGame("dicetopia", {"players": [{"name": "Ann"}, {"name": "Bo"}]}))
    mark_boards(session)
    roll = session.settle(SettledRoll(roll_id=1, width=960, height=540, dice=(
        die(120, 140, 6, "purple"), die(60, 140, None, "purple", 0.2))))
    assert roll.status.value == "pending"  # an unreadable box in The Agency: asked
    assert roll.error_message is not None and roll.error_message.id == "dt.unread"
    session.correct_die(CorrectDie(roll_id=1, index=1, value=None, colour=None))
    assert session.roll_payload()["status"] == "applied"
    assert view_state(session)["table"]["zones"]["the_agency"] == [
        {"colour": "purple", "value": 6}]


def test_the_marked_boards_are_there_after_a_restart(tmp_path: Path) -> None:
    first = session_at(tmp_path)
    first.new_game(NewGame("dicetopia", {"players": [{"name": "Ann"}, {"name": "Bo"}]}))
    mark_boards(first)
    again = session_at(tmp_path)
    assert [z["name"] for z in again.view()["zones"]["zones"]] == ["city", "board:Ann",
                                                                  "board:Bo"]
    roll = again.settle(SettledRoll(roll_id=1, width=960, height=540,
                                    dice=(die(320, 340, 3, "turquoise"),)))
    assert roll.dice[0].zone == "observatory_bank"


def view_state(session: GameSession) -> dict[str, Any]:
    return session.view()["state"]


def endgame_dice(ann_dice: int = 6) -> tuple[DieReading, ...]:
    return (*(die(680 + 45 * k, 100, k + 1, "white") for k in range(ann_dice)),
            *(die(680 + 45 * k, 260, k + 1, "purple") for k in range(6)),
            die(520, 340, 3, "turquoise"))  # Nethal Syndicate


def test_a_finished_game_opened_again_keeps_its_stored_table(tmp_path: Path) -> None:
    """Issue 59, item 2: a finished game is read-only until the players say otherwise; no
    camera reading replaces a stored one without a tap."""
    session = session_at(tmp_path)
    game_id = session.new_game(NewGame("dicetopia", {"players": [{"name": "Ann"},
                                                                 {"name": "Bo"}]}))["game_id"]
    mark_boards(session)
    assert session.settle(SettledRoll(1, 960, 540, endgame_dice())).status.value == "applied"
    districts = ("the_agency", "the_gugu_airforce", "waste_management", "twilight_congress")
    for i, district in enumerate(districts):
        session.act(Act({"type": "set_agents", "district": district,
                         "agents": {"Ann": 1 + i % 2, "Bo": 2 - i % 2}}))
    session.act(Act({"type": "set_missions", "player": "Ann",
                     "missions": ["waffenkammer", "insider"]}))
    session.act(Act({"type": "set_missions", "player": "Bo",
                     "missions": ["pazifist", "falschgeld"]}))
    assert view_state(session)["complete"]
    store = session.store
    logged, updated = len(store.log(game_id)), store.get_game(game_id).updated
    scores = [(p["name"], p["total"]) for p in view_state(session)["players"]]

    session.open_game(OpenGame(game_id))  # Games -> Open on the finished game
    # the table as it was stored, read again: nothing new to store
    assert session.settle(SettledRoll(2, 960, 540, endgame_dice())).status.value == "shown"
    # a die gone from Ann's board (the table being cleared): asked, not stored
    roll = session.settle(SettledRoll(3, 960, 540, endgame_dice(ann_dice=5)))
    assert roll.status.value == "pending" and roll.error is None
    assert roll.note is not None and roll.note.id == "core.finished_reread"
    assert "only if you tap Dice are right" in roll.note.text("en")
    assert "Würfel stimmen" in roll.note.text("de")
    assert len(store.log(game_id)) == logged and store.get_game(game_id).updated == updated
    assert [(p["name"], p["total"]) for p in view_state(session)["players"]] == scores
    # the players say otherwise: one tap takes the new reading
    session.confirm_roll(ConfirmRoll(3))
    assert session.roll_payload()["status"] == "applied"
    assert len(store.log(game_id)) == logged + 1
    assert len(view_state(session)["table"]["zones"]["board:Ann"]) == 5
