"""A player's colour correction moves the game's colour fit (issue 59, item 3): a die the
fit turns to another colour than the tablet showed is asked, never silently recoloured."""

from __future__ import annotations

from pathlib import Path

from dicecam.reading import SettledRoll
from dicecam.webapp.journal.sqlite import GameStore
from dicecam.webapp.session.game_session import GameSession, asked_where_moved
from dicecam.webapp.session.tablet_commands import CorrectDie, NewGame
from tests.support.doubles import scored_die


def party_throw() -> tuple:
    """Dice Party's first throw (2 Party People, 2 VIPs) read with two dice in doubt."""
    return (scored_die({"yellow": 0.55, "orange": 0.45, "red": 0.0}),
            scored_die({"yellow": 0.98, "orange": 0.02, "red": 0.0}),
            scored_die({"yellow": 0.02, "orange": 0.98, "red": 0.0}),
            scored_die({"yellow": 0.52, "orange": 0.48, "red": 0.0}))


def test_a_die_the_fit_recolours_after_a_correction_is_asked(tmp_path: Path) -> None:
    session = GameSession(GameStore(tmp_path / "games.sqlite"), lambda event, payload: None)
    session.new_game(NewGame("diceparty", {"players": ["Ann", "Bo"]}))
    roll = session.settle(SettledRoll(1, 640, 480, party_throw()))
    shown = [d.colour for d in roll.dice]
    assert shown == ["yellow", "yellow", "orange", "orange"]
    assert roll.status.value == "pending" and roll.dice[0].needs_check
    # the players say the first die is orange (under a tint it looked so): the counts then
    # make the last die yellow, which the tablet showed orange: it is asked, not scored
    session.correct_die(CorrectDie(1, 0, 4, "orange"))
    after = session.roll_payload()
    assert after is not None and after["status"] == "pending"
    moved = after["dice"][3]
    assert moved["colour"] == "yellow" and moved["needs_check"]
    assert not after["dice"][1]["needs_check"] and not after["dice"][2]["needs_check"]
    # its own answer settles it, and the throw scores
    session.correct_die(CorrectDie(1, 3, 4, "yellow"))
    assert session.roll_payload()["status"] == "applied"


def test_the_first_reading_is_fitted_without_asking_more() -> None:
    dice = party_throw()
    assert asked_where_moved(dice, dice[::-1]) == dice[::-1]  # no correction yet
