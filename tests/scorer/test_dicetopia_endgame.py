"""Dicetopia read where its dice lie at the end (scorer/dicetopia/endgame.py): the zones the
camera places dice in, the demo's endgame table, and what a roll of it counts as."""

from __future__ import annotations

from collections import Counter

import pytest

from dicecam.calibration.zones import load_board
from dicecam.errors import InputError
from dicecam.reading import DieReading
from dicecam.scorer.dicetopia import adapter, codec, endgame
from dicecam.scorer.dicetopia.model import DISTRICTS
from dicecam.scorer.registry import get_game

NAMES = ["Ann", "Bo", "Cy", "Dee"]


def new(n: int):
    return codec.new_game({"players": [{"name": name} for name in NAMES[:n]]})


def die(zone: str | None, value: int | None = 3, colour: str | None = "purple") -> DieReading:
    return DieReading(x=10.0, y=10.0, w=20.0, h=20.0, value=value, colour=colour,
                      confidence=0.99, zone=zone)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_demo_endgame_is_a_table_a_game_of_n_players_ends_with(n: int) -> None:
    due = endgame.table_due(new(n))
    assert due.boards == ((endgame.CITY_BOARD, ""),) + tuple(
        (endgame.FACTION_BOARD, name) for name in NAMES[:n])
    zones = {z.zone: z for z in due.zones}
    # every faction board full, the six dice left in the districts, 2N + 2 of each colour
    assert [zones[f"faction:{name}"].dice for name in NAMES[:n]] == [6] * n
    assert sum(zones[d.value].dice for d in DISTRICTS) == 6
    assert dict(due.colours) == {"purple": 2 * n + 2, "white": 2 * n + 2, "turquoise": 2 * n + 2}
    assert sum(count for _, count in due.colours) == 6 * n + 6
    # each player's six agents, and every field in play (N + 1 a district) taken
    agents = Counter(owner for z in due.zones for owner in z.markers)
    assert agents == {seat: 6 for seat in range(n)}
    assert all(zones[d.value].dice + len(zones[d.value].markers) == n + 1 for d in DISTRICTS)
    # the printed city map has those fields
    city = {z.name: z for z in load_board(endgame.CITY_BOARD).zones}
    assert all(len(city[d.value].fields) >= n + 1 for d in DISTRICTS)
    # the rules take the table as it lies: complete once the missions are in
    dealt = iter(colour for colour, count in due.colours for _ in range(count))
    state = new(n)
    state = codec.apply(state, codec.action_from_json({"type": "set_dice", "zones": {
        endgame.game_zone(z.zone): [{"colour": next(dealt), "value": 4} for _ in range(z.dice)]
        for z in due.zones}}))
    for z in due.zones:
        if z.markers:
            counts = Counter(NAMES[owner] for owner in z.markers)
            state = codec.apply(state, codec.action_from_json(
                {"type": "set_agents", "district": z.zone, "agents": dict(counts)}))
    waiting = [m.id for m in state.result.waiting_for]
    assert waiting == ["dt.wait_missions"] * n


def test_the_two_player_demo_has_districts_won_outright_and_tied() -> None:
    due = endgame.table_due(new(2))
    outcomes = set()
    for zone in due.zones:
        if zone.zone.startswith("faction:"):
            continue
        counts = sorted(Counter(zone.markers).values(), reverse=True) + [0]
        outcomes.add("tied" if counts[0] == counts[1] else "won")
    assert outcomes == {"tied", "won"}


def test_a_faction_zone_is_that_players_board() -> None:
    assert endgame.game_zone("faction:Ann") == "board:Ann"
    assert endgame.game_zone("board:Ann") == "board:Ann"
    assert endgame.game_zone("the_agency") == "the_agency"
    assert endgame.game_zone(None) is None
    state = new(2)
    action = adapter.action_from_roll(state, [die("faction:Ann", 5), die("the_agency", 2),
                                              die("faction:Zed"), die(None)])
    assert action is not None
    assert [(zone, [d.value for d in dice]) for zone, dice in action.zones] == [
        ("board:Ann", [5]), ("the_agency", [2])]
    with pytest.raises(InputError) as unread:
        adapter.action_from_roll(state, [die("faction:Bo", None)])
    assert "Bo's faction board" in str(unread.value)
    groups = adapter.colour_groups(state, [die("faction:Ann"), die(None), die("the_agency")])
    assert [g.indices for g in groups] == [[0, 2]]


def test_the_city_area_drawn_on_a_tablet_places_the_six_districts() -> None:
    game = get_game("dicetopia")
    assert game.drawn_boards == {"city": endgame.CITY_BOARD}
    assert [z.name for z in load_board(game.drawn_boards["city"]).zones] == [
        d.value for d in DISTRICTS]
    assert game.table_due is endgame.table_due


def test_a_roll_says_where_its_dice_were_read() -> None:
    state = new(2)
    nowhere = endgame.roll_summary(state, [die(None), die(None)], "shown")
    assert nowhere.text("en").startswith("2 dice seen, none on a marked board: mark the "
                                            "city map")
    assert nowhere.text("de").startswith("2 Würfel gesehen, keiner auf einer markierten")
    dice = [die("board:Ann")] * 6 + [die("faction:Bo")] * 5 + [die("the_agency"),
                                                              die("observatory_bank"), die(None)]
    placed = endgame.roll_summary(state, dice, "applied")
    assert placed.text("en") == ("13 dice read where they lie: 6 on Ann's board, 5 on "
                                    "Bo's board, 2 in the districts and 1 beside the boards "
                                    "(not counted)")
    assert placed.text("de").startswith("13 Würfel dort gelesen, wo sie liegen: 6 auf der "
                                           "Tafel von Ann")


def test_one_die_is_one_die() -> None:
    state = new(2)
    assert endgame.roll_summary(state, [die(None)], "shown").text("en").startswith(
        "1 die seen, not on a marked board")
    assert endgame.roll_summary(state, [die("the_agency")], "applied").text("en") == (
        "1 die read where it lies: 1 in the districts")


def test_a_die_missing_from_the_districts_is_said() -> None:
    state = new(2)
    boards = [die("board:Ann")] * 6 + [die("board:Bo")] * 6
    short = endgame.roll_summary(state, boards + [die("the_agency")] * 5, "applied")
    assert short.text("en").endswith("6 on Bo's board and 5 in the districts, where 6 lie at "
                                     "the end: 1 hidden or missed?")
    assert "5 in den Bezirken, wo am Ende 6 liegen: 1 verdeckt" in short.text("de")
    full = endgame.roll_summary(state, boards + [die("the_agency")] * 6, "applied")
    assert full.text("en").endswith("and 6 in the districts")
    # a board not read full says nothing of the districts (the roll may show part of it)
    part = endgame.roll_summary(state, boards[1:] + [die("the_agency")] * 2, "applied")
    assert part.text("en").endswith("and 2 in the districts")
    assert sum(endgame.DEMO_DISTRICT_DICE) == endgame.DISTRICT_DICE_AT_END
