"""Dicetopia endgame scoring: the rulebook example, control, tie-breaks, faction abilities,
table limits, and a random-play test of the invariants (rulebook sections 3, 6 and 7)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from dicecam.errors import RuleError
from dicecam.messages import english
from dicecam.scorer.dicetopia.missions import MISSIONS
from dicecam.scorer.dicetopia.model import (
    DISTRICTS,
    Colour,
    Die,
    District,
    Faction,
    PlayerSetup,
    Position,
    board_pips,
    dice_per_colour,
    fields_per_district,
)
from dicecam.scorer.dicetopia.scoring import MISSIONS_HELD, score_position
from dicecam.scorer.registry import get_game
from tests.support.dicetopia import NAMES, RULEBOOK_EXAMPLE, build, dice


def test_rulebook_example_section_6() -> None:
    position = build(RULEBOOK_EXAMPLE["input"])
    result = score_position(position)
    for player in result.players:
        loot, control, missions, total, rank, cards = RULEBOOK_EXAMPLE["expected"][player.name]
        assert (player.loot, player.control, player.missions, player.total, player.rank) == (
            loot, control, missions, total, rank
        ), player.name
        assert {m.mission: m.stars for m in player.mission_results} == cards
    assert [result.players[w].name for w in result.winners] == ["red"]
    assert result.complete
    assert english(result.explanation) == "red wins with 68 stars."
    # the two purple dice on the map and red's two districts, as the text says
    assert sum(d.colour is Colour.PURPLE for d in dice("p6 w1 w4 t2 p3 t5")) == 2
    red_districts = [r for r in result.districts if r.controllers == (0,)]
    assert len(red_districts) == 2 and sum(r.stars_each for r in red_districts) == 22


CONTROL_CASES = get_game("dicetopia").worked_examples("control")


@pytest.mark.parametrize("case", CONTROL_CASES, ids=lambda c: c["description"])
def test_control(case: dict[str, Any]) -> None:
    result = score_position(build(case["input"]))
    for district, expected in case["expected"].items():
        row = next(r for r in result.districts if r.district.value == district)
        got = {result.players[p].name: row.stars_each for p in row.controllers}
        assert got == expected


WINNER_CASES = get_game("dicetopia").worked_examples("winner")


@pytest.mark.parametrize("case", WINNER_CASES, ids=lambda c: c["description"])
def test_winner_and_tie_breaks(case: dict[str, Any]) -> None:
    result = score_position(build(case["input"]))
    assert [result.players[w].name for w in result.winners] == case["expected"]["winners"]
    assert [p.rank for p in result.players] == case["expected"]["ranks"]
    assert english(result.explanation) == case["expected"]["because"]


# --- faction abilities at scoring time (section 7) ------------------------------------------


def test_bingmai_decides_a_tie_for_itself_and_says_so() -> None:
    spec = {"boards": ["", ""], "factions": [None, "bingmai_gamblers"],
            "map": {"the_agency": "p6"}, "agents": {"the_agency": [1, 1]}}
    result = score_position(build(spec))
    assert [p.control for p in result.players] == [0, 11]
    agency = result.districts[0]
    assert agency.tied == (0, 1) and agency.controllers == (1,) and agency.decided_by == 1
    assert result.abilities[0].used
    assert english(result.abilities[0].text) == (
        "blue (Bingmai) decides the tie in The Agency for blue")


def test_bingmai_without_the_ability_shares_the_tie() -> None:
    spec = {"boards": ["", ""], "map": {"the_agency": "p6"}, "agents": {"the_agency": [1, 1]}}
    assert [p.control for p in score_position(build(spec)).players] == [6, 6]


def test_bingmai_picks_the_richest_tie_and_infiltration_counts_it() -> None:
    spec = {"boards": ["", ""], "factions": ["bingmai_gamblers", None],
            "missions": [["infiltration"], []],
            "map": {"the_agency": "p1", "waste_management": "w6"},
            "agents": {"the_agency": [1, 1], "waste_management": [1, 1]}}
    result = score_position(build(spec))
    red = result.players[0]
    # waste management (5 + 6) outright, The Agency shared (ceil(6 / 2) = 3)
    assert red.control == 11 + 3
    assert red.mission_results[0].stars == 4
    assert "Waste Management" in english(result.abilities[0].text)


def test_bingmai_leaves_a_tie_between_two_rivals_alone() -> None:
    spec = {"boards": ["p1", "", ""], "factions": ["bingmai_gamblers", None, None],
            "map": {"the_agency": "p6"}, "agents": {"the_agency": [0, 1, 1]}}
    result = score_position(build(spec))
    assert not result.abilities[0].used
    assert [p.control for p in result.players] == [0, 6, 6]
    assert english(result.abilities[0].text) == "red (Bingmai) leaves every district tie as it is"


def test_centauri_scores_the_best_two_of_three_missions() -> None:
    spec = {"boards": ["p1 p2 w1", ""], "factions": ["centauri_bureau", None],
            "missions": [["schmuggler", "weniger_ist_mehr", "pazifist"], []]}
    result = score_position(build(spec))
    red = result.players[0]
    assert [(m.mission, m.stars, m.counted) for m in red.mission_results] == [
        ("schmuggler", 6, True), ("weniger_ist_mehr", 16, True), ("pazifist", 0, False)]
    assert red.missions == 22
    assert english(result.abilities[0].text) == (
        "red (Centauri) scores Smuggler and Less Is More and leaves out Pacifist")
    # the cards by their names, never their ids; in German their German titles
    assert result.abilities[0].text.text("de") == (
        "red (Centauri) wertet Schmuggler und Weniger ist mehr und lässt Pazifist weg")


def test_only_centauri_may_hold_three_missions() -> None:
    spec = {"boards": ["", ""], "missions": [["schmuggler", "weniger_ist_mehr", "pazifist"], []]}
    with pytest.raises(RuleError, match="holds 3 missions, but a player holds 2"):
        score_position(build(spec))


def test_dangmer_copies_a_value_from_the_right_hand_neighbour() -> None:
    # blue is Dangmer; its right-hand neighbour is red, who played before it
    spec = {"boards": ["p4 w1", "p4 w4 t4 p4 w4 t3"], "factions": [None, "dangmer_program"],
            "missions": [[], ["klone"]]}
    result = score_position(build(spec))
    blue = result.players[1]
    assert blue.board[5] == Die(Colour.TURQUOISE, 4)
    assert blue.loot == 24 and blue.missions == 18
    assert english(result.abilities[0].text) == (
        "blue (Dangmer) copies the value of red's purple 4: their turquoise 3 scores as "
        "turquoise 4")


def test_dangmer_copies_a_colour() -> None:
    spec = {"boards": ["t2", "p3 p3 w5 w5 t6 t1"], "factions": [None, "dangmer_program"],
            "missions": [[], ["alleskoenner"]]}
    blue = score_position(build(spec)).players[1]
    assert blue.missions == 8  # already had every colour: no copy needed
    spec["boards"] = ["t2", "p3 p3 w5 w5 w6 w1"]
    result = score_position(build(spec))
    assert result.players[1].missions == 8
    assert "copies the colour of red's turquoise 2" in english(result.abilities[0].text)


def test_dangmer_cannot_copy_from_the_left_hand_neighbour() -> None:
    # three players: red is Dangmer, its right-hand neighbour is green (the last seat)
    spec = {"boards": ["p6 p6 p6 p6 p6 p5", "w6", "t1"],
            "factions": ["dangmer_program", None, None], "missions": [["klone"], [], []]}
    result = score_position(build(spec))
    red = result.players[0]
    assert red.missions == 0
    assert red.board[5] == Die(Colour.PURPLE, 5)
    assert not result.abilities[0].used
    assert "green" in english(result.abilities[0].text)


def test_dangmer_clone_counts_for_loot() -> None:
    spec = {"boards": ["p6", "w1"], "factions": [None, "dangmer_program"]}
    result = score_position(build(spec))
    assert result.players[1].loot == 6 and result.players[1].board == (Die(Colour.WHITE, 6),)


def test_bingmai_and_dangmer_both_choose() -> None:
    spec = {"boards": ["p6 w6", "p1 w1"], "factions": ["bingmai_gamblers", "dangmer_program"],
            "map": {"the_agency": "t5"}, "agents": {"the_agency": [1, 1]}}
    result = score_position(build(spec))
    assert [a.used for a in result.abilities] == [True, True]
    assert result.districts[0].controllers == (0,)
    assert result.players[1].loot == 7  # the 1 became a 6


# --- table limits (sections 3 and 6) --------------------------------------------------------

LIMIT_CASES = [
    ("a seventh die on a faction board", {"boards": ["p1 p1 p1 p1 p1 p1 w1", ""]},
     "faction board holds 7 dice"),
    ("a seventh purple die in a two-player game", {
        "boards": ["p1 p1 p1 p1 p1 p1", "p2"]}, "7 purple dice are in play"),
    ("more objects than a district's fields (2 players: 3 fields)", {
        "boards": ["", ""], "map": {"the_agency": "w1 w2"}, "agents": {"the_agency": [1, 1]}},
     "only 3 fields"),
    ("a seventh agent", {"boards": ["", "", "", ""], "agents": {
        d.value: [2, 0, 0, 0] for d in DISTRICTS[:4]}}, "red has 8 agents"),
    ("an unknown mission", {"boards": ["", ""], "missions": [["schach"], []]},
     "unknown mission 'schach'"),
    ("one card in two hands", {"boards": ["", ""], "missions": [["replik"], ["replik"]]},
     "held by both red and blue"),
    ("a risk draw without RISIKO", {"boards": ["", ""], "risk_draw": ["replik", None]},
     "does not hold risiko"),
    ("a risk draw someone holds", {"boards": ["", ""], "missions": [["risiko"], ["replik"]],
                                   "risk_draw": ["replik", None]}, "held by both"),
    ("a card twice in one hand", {"boards": ["", ""], "missions": [["replik", "replik"], []]},
     "red holds the same mission twice"),
    ("a risk draw from one's own hand", {"boards": ["", ""],
                                         "missions": [["risiko", "replik"], []],
                                         "risk_draw": ["replik", None]},
     "red's risk draw replik is a card red holds"),
    ("RISIKO drawing itself", {"boards": ["", ""], "missions": [["risiko"], []],
                               "risk_draw": ["risiko", None]},
     "red's risk draw risiko is a card red holds"),
    ("copying one's own card", {"boards": ["", ""], "missions": [["trittbrettgaenger", "replik"],
                                                                  []],
                                "copy": [["red", "replik"], None]}, "another player's card"),
    ("copying a card the other player lacks", {
        "boards": ["", ""], "missions": [["trittbrettgaenger"], ["replik"]],
        "copy": [["blue", "klone"], None]}, "can copy only a card blue holds"),
]


@pytest.mark.parametrize("what,spec,message", LIMIT_CASES, ids=[c[0] for c in LIMIT_CASES])
def test_impossible_tables_are_refused(what: str, spec: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        score_position(build(spec))


def test_four_players_may_use_ten_dice_of_a_colour() -> None:
    spec = {"boards": ["p1 p1 p1 p1 p1 p1", "p2 p2 p2 p2", "", ""]}
    assert score_position(build(spec)).players[0].loot == 6
    spec["boards"][2] = "p3"
    with pytest.raises(RuleError, match="11 purple dice are in play, but a 4-player game uses 10"):
        score_position(build(spec))


def test_incomplete_tables_say_what_is_missing() -> None:
    result = score_position(build({"boards": ["p1", ""], "missions": [["risiko"], []]}))
    assert not result.complete
    missing = english(result.waiting_for)
    assert "red's faction board holds 1 of 6 dice" in missing
    assert "red still draws the card for Risiko" in missing  # the card's name, not its id
    assert "blue holds 0 of 2 missions" in missing


# --- random play ----------------------------------------------------------------------------


def random_end_position(rng: random.Random) -> Position:
    """A legal end of game: full boards, every agent placed, every field filled."""
    n = rng.randint(2, 4)
    pool = [Die(c, rng.randint(1, 6)) for c in Colour for _ in range(dice_per_colour(n))]
    rng.shuffle(pool)
    boards = tuple(tuple(pool[6 * p: 6 * p + 6]) for p in range(n))
    left = pool[6 * n:]
    fields = [d for d in range(len(DISTRICTS)) for _ in range(fields_per_district(n))]
    rng.shuffle(fields)
    agents = [[0] * n for _ in DISTRICTS]
    for p in range(n):
        for _ in range(6):
            agents[fields.pop()][p] += 1
    district_dice: list[list[Die]] = [[] for _ in DISTRICTS]
    for die, d in zip(left, fields, strict=True):
        district_dice[d].append(die)
    factions = rng.sample(list(Faction), n)
    deck = list(MISSIONS)
    rng.shuffle(deck)
    players = []
    for p in range(n):
        held = tuple(deck.pop() for _ in range(3 if factions[p] is Faction.CENTAURI_BUREAU
                                              else MISSIONS_HELD))
        players.append(PlayerSetup(NAMES[p], factions[p], held))
    players = [
        replace(player, risk_draw=deck.pop()) if "risiko" in player.missions else player
        for player in players
    ]
    return Position(tuple(players), boards, tuple(tuple(d) for d in district_dice),
                    tuple(tuple(a) for a in agents))


def test_random_end_positions_keep_the_invariants() -> None:
    rng = random.Random(4)
    for _ in range(300):
        position = random_end_position(rng)
        result = score_position(position)
        assert result.complete
        n = len(position.players)
        for p, player in enumerate(result.players):
            assert min(player.loot, player.control, player.missions) >= 0
            assert player.total == player.loot + player.control + player.missions
            assert player.loot == board_pips(player.board)
            assert player.missions == sum(m.stars for m in player.mission_results if m.counted)
            if position.players[p].faction is not Faction.DANGMER_PROGRAM:
                assert player.board == position.boards[p]
        # every controlled district pays out at least its stars, shared ones rounded up
        for row in result.districts:
            if row.controllers:
                assert row.stars_each * len(row.controllers) >= 5 + row.dice_pips
        ranked = sorted(result.players, key=lambda r: r.rank)
        assert ranked[0].rank == 1 and result.winners
        assert all(result.players[w].total == max(r.total for r in result.players)
                   for w in result.winners)
        # an ability used for its owner never costs the owner stars (with both Bingmai and
        # Dangmer at the table, each answers the other, so only a lone one is compared)
        movers = [s.faction for s in position.players if s.faction in (
            Faction.BINGMAI_GAMBLERS, Faction.DANGMER_PROGRAM)]
        for p, setup in enumerate(position.players):
            if setup.faction is Faction.CENTAURI_BUREAU or (
                    setup.faction in movers and len(movers) == 1):
                plain = list(position.players)
                kept = setup.missions[:MISSIONS_HELD]
                plain[p] = replace(setup, faction=Faction.HOLLOWS, missions=kept,
                                   risk_draw=setup.risk_draw if "risiko" in kept else None)
                without = score_position(replace(position, players=tuple(plain)))
                assert result.players[p].total >= without.players[p].total
        assert len(result.players) == n


def test_district_names_are_the_issue_ids() -> None:
    assert [d.value for d in District] == [
        "the_agency", "the_gugu_airforce", "waste_management", "twilight_congress",
        "observatory_bank", "nethal_syndicate"]
    assert [c.value for c in Colour] == ["purple", "white", "turquoise"]
