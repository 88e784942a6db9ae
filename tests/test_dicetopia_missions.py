"""Every Dicetopia mission card (rulebook section 8): a success and a near miss each, plus
the readings chosen for the ambiguous cards (see dicecam/games/dicetopia/missions.py).

Each case gives red (the first player) one card and scores the whole table, so the cards
are tested through the engine, on positions a real table allows (two players unless more
boards are given: 6 dice of each colour, 3 fields per district)."""

from __future__ import annotations

from typing import Any

import pytest
from test_dicetopia import build

from dicecam.games.dicetopia.missions import MISSIONS, MissionKind, mission_id
from dicecam.games.dicetopia.scoring import score_position


def case(mission: str, description: str, expected: int, boards: list[str],
         **extra: Any) -> dict[str, Any]:
    missions = [[mission]] + [[] for _ in boards[1:]]
    for p, cards in extra.pop("others", {}).items():
        missions[p] = cards
    return {"mission": mission, "description": f"{mission}: {description} (section 8)",
            "input": {"boards": boards, "missions": missions, **extra},
            "expected": expected}


CASES = [
    case("waffenkammer", "most purple dice", 12, ["p1 p2 w3", "p4 w1"]),
    case("waffenkammer", "near miss: one purple die fewer than blue", 0, ["p1 p2", "p3 p4 p5"]),
    case("waffenkammer", "tied for most: 12 split, rounded up", 6, ["p1 p2", "p3 p4"]),
    case("waffenkammer", "nobody has purple: no stars", 0, ["w1", "w2"]),
    case("geld_regiert_die_welt", "most white dice", 12, ["w1 w2", "w3"]),
    case("geld_regiert_die_welt", "near miss: blue has more white", 0, ["w1", "w2 w3"]),
    case("insider", "most turquoise dice", 12, ["t1 t2", "t3"]),
    case("insider", "near miss: blue has more turquoise", 0, ["t1 t2", "t3 t4 t5"]),
    case("insider", "three-way tie in a 4-player game: ceil(12 / 3) = 4", 4,
         ["t1", "t2", "t3", "w1"]),
    case("pazifist", "no purple die", 9, ["w1 t2", "p1"]),
    case("pazifist", "near miss: one purple die", 0, ["w1 t2 p6", ""]),
    case("pazifist", "an empty board has no purple die, as written", 9, ["", "p1"]),
    case("falschgeld", "no white die", 9, ["p1 t2", "w1"]),
    case("falschgeld", "near miss: one white die", 0, ["p1 w2", ""]),
    case("fehlinformation", "no turquoise die", 9, ["p1 w2", "t1"]),
    case("fehlinformation", "near miss: one turquoise die", 0, ["p1 t2", ""]),
    case("schmuggler", "3 per own purple die", 9, ["p1 p2 p3 w1", ""]),
    case("schmuggler", "near miss: purple dice on the map are not yours", 0, ["w1 t1", "p1"],
         map={"the_agency": "p2"}),
    case("geldwaesche", "3 per own white die", 6, ["w1 w2 p3", ""]),
    case("geldwaesche", "near miss: no white die", 0, ["p1", "w1"]),
    case("verraeter", "3 per own turquoise die", 12, ["t1 t2 t3 t4", ""]),
    case("verraeter", "near miss: no turquoise die", 0, ["w1", "t1"]),
    case("toter_briefkasten", "4 per white die on the map", 8, ["", ""],
         map={"the_agency": "w1", "waste_management": "w2 p1"}),
    case("toter_briefkasten", "near miss: white dice on boards do not count", 0, ["w1 w2", "w3"],
         map={"the_agency": "p3"}),
    case("buergerwehr", "4 per purple die on the map", 8, ["", ""],
         map={"the_agency": "p1", "nethal_syndicate": "p2"}),
    case("buergerwehr", "near miss: purple dice on boards do not count", 0, ["p1 p2", "p3"],
         map={"the_agency": "w1"}),
    case("geheimkammern", "4 per turquoise die on the map", 12, ["", ""],
         map={"the_agency": "t1 t2", "observatory_bank": "t3"}),
    case("geheimkammern", "near miss: no turquoise die on the map", 0, ["t1", ""],
         map={"the_agency": "w1 p2"}),
    case("weniger_ist_mehr", "8 per own 1", 16, ["p1 w1 t2", ""]),
    case("weniger_ist_mehr", "near miss: twos only", 0, ["p2 w2", "p1"]),
    case("langsam_aber_stetig", "7 per own 2", 21, ["p2 w2 t2", ""]),
    case("langsam_aber_stetig", "near miss: 1 and 3", 0, ["p1 p3", "w2"]),
    case("strassennynte", "6 per own 3", 12, ["p3 w3", ""]),
    case("strassennynte", "near miss: 2 and 4", 0, ["p2 p4", "w3"]),
    case("gluecksklee", "5 per own 4", 5, ["p4", ""]),
    case("gluecksklee", "near miss: 3 and 5", 0, ["p3 p5", "w4"]),
    case("im_grossen_stil", "4 per own 5", 12, ["p5 w5 t5", ""]),
    case("im_grossen_stil", "near miss: 4 and 6", 0, ["p4 p6", "w5"]),
    case("mehr_ist_besser", "4 per own 6", 8, ["p6 w6", ""]),
    case("mehr_ist_besser", "near miss: a 5", 0, ["p5", "w6"]),
    case("kein_kleingeld", "no 1", 9, ["p2 w3", "t1"]),
    case("kein_kleingeld", "near miss: one 1", 0, ["p2 w1", ""]),
    case("kontaminierter_waren", "no 2", 8, ["p1 w3", "t2"]),
    case("kontaminierter_waren", "near miss: one 2", 0, ["p2", ""]),
    case("alles_oder_nichts", "no 3", 8, ["p1 p2", "t3"]),
    case("alles_oder_nichts", "near miss: one 3", 0, ["p3", ""]),
    case("unsichtbar", "no 4", 9, ["p1 p5", "t4"]),
    case("unsichtbar", "near miss: one 4", 0, ["p4", ""]),
    case("risikomanagement", "no 5", 11, ["p6 p4", "t5"]),
    case("risikomanagement", "near miss: one 5", 0, ["p5", ""]),
    case("unter_dem_radar", "no 6", 12, ["p5 p4", "t6"]),
    case("unter_dem_radar", "near miss: one 6", 0, ["p6 p1", ""]),
    case("unter_dem_radar", "an empty board has no 6, as written", 12, ["", "p6"]),
    case("faelschung", "4 per pair of equal values, any colours", 8,
         ["p3 w3 t5 p5 w1 t2", ""]),
    case("faelschung", "near miss: six different values", 0, ["p1 p2 p3 p4 p5 p6", ""]),
    case("faelschung", "three equal values make one pair", 4, ["p3 w3 t3", ""]),
    case("faelschung", "four equal values make two pairs", 8, ["p3 w3 t3 p3", ""]),
    case("replik", "7 per pair equal in colour and value", 14, ["p3 p3 w4 w4", ""]),
    case("replik", "near miss: equal values in different colours", 0, ["p3 w3 t4 w4", ""]),
    case("replik", "three identical dice make one pair", 7, ["p3 p3 p3", ""]),
    case("aller_guten_dinge_sind_drei", "three dice of one value", 8, ["p2 w2 t2", ""]),
    case("aller_guten_dinge_sind_drei", "near miss: two of a value", 0, ["p2 w2 t3", ""]),
    case("aller_guten_dinge_sind_drei", "two triples still score once", 8,
         ["p2 w2 t2 p5 w5 t5", ""]),
    case("aller_guten_dinge_sind_drei", "four of a value qualify", 8, ["p2 w2 t2 p2", ""]),
    case("klone", "all six dice equal", 18, ["p4 w4 t4 p4 w4 t4", ""]),
    case("klone", "near miss: one die differs", 0, ["p4 w4 t4 p4 w4 t5", ""]),
    case("klone", "an empty board is not all equal", 0, ["", "p1"]),
    case("der_grosse_coup", "1 to 6 on the board", 25, ["p1 w2 t3 p4 w5 t6", ""]),
    case("der_grosse_coup", "near miss: five in a row and a pair", 0,
         ["p1 w2 t3 p4 w5 t5", ""]),
    case("alleskoenner", "dice of all three colours", 8, ["p1 w1 t1", ""]),
    case("alleskoenner", "near miss: no turquoise", 0, ["p1 w1 w2", "t1"]),
    case("exzentriker", "only odd values", 10, ["p1 w3 t5", ""]),
    case("exzentriker", "near miss: one even value", 0, ["p1 w3 t6", ""]),
    case("exzentriker", "an empty board has no odd dice", 0, ["", "p1"]),
    case("perfektionist", "only even values", 10, ["p2 w4 t6", ""]),
    case("perfektionist", "near miss: one odd value", 0, ["p2 w4 t5", ""]),
    case("perfektionist", "an empty board has no even dice", 0, ["", "p1"]),
    case("notaalreserve", "highest pip total on a board", 10, ["p6 w6", "p5 w6"]),
    case("notaalreserve", "near miss: one pip short", 0, ["p6 w5", "p6 w6"]),
    case("notaalreserve", "tied highest: 10 split", 5, ["p6 w5", "p5 w6"]),
    case("notaalreserve", "single dice are not compared: a 6 loses to 5 + 5", 0,
         ["p6", "p5 w5"]),
    case("diskretion", "lowest pip total on a board", 14, ["p1 w1", "p2 w1"]),
    case("diskretion", "near miss: one pip more than blue", 0, ["p2 w1", "p1 w1"]),
    case("diskretion", "tied lowest: 14 split", 7, ["p2 w1", "p1 w2"]),
    case("diskretion", "an empty board is not the lowest", 14, ["p6", ""]),
    case("diskretion", "near miss: the holder's own empty board is not the lowest", 0,
         ["", "p6"]),
    case("trittbrettgaenger", "copies blue's SCHMUGGLER, scored with red's dice", 9,
         ["p1 p2 p3", "w1"], others={1: ["schmuggler", "pazifist"]},
         copy=[["blue", "schmuggler"], None]),
    case("trittbrettgaenger", "near miss: the copied PAZIFIST fails on red's purple dice", 0,
         ["p1 p2 p3", "w1"], others={1: ["schmuggler", "pazifist"]},
         copy=[["blue", "pazifist"], None]),
    case("trittbrettgaenger", "no copy given: the engine picks the best card", 9,
         ["p1 p2 p3", "w1"], others={1: ["pazifist", "schmuggler"]}),
    case("trittbrettgaenger", "copies the third card a Centauri player leaves out", 9,
         ["p1 p2 p3", "w1 w2"], factions=[None, "centauri_bureau"],
         others={1: ["pazifist", "weniger_ist_mehr", "schmuggler"]}),
    case("trittbrettgaenger", "copying RISIKO scores blue's draw doubled with red's dice", 16,
         ["p1 w2", "p2"], others={1: ["risiko"]}, risk_draw=[None, "weniger_ist_mehr"],
         copy=[["blue", "risiko"], None]),
    case("risiko", "the drawn card succeeds: double stars", 32, ["p1 w1", ""],
         risk_draw=["weniger_ist_mehr", None]),
    case("risiko", "near miss: the drawn card fails, no stars", 0, ["p2", ""],
         risk_draw=["weniger_ist_mehr", None]),
    case("risiko", "drawn TRITTBRETTGÄNGER copies the best card, doubled", 18,
         ["p1 p2 p3", "w1"], others={1: ["schmuggler"]},
         risk_draw=["trittbrettgaenger", None]),
    case("risiko", "no card drawn yet: 0 until it is", 0, ["p1", ""]),
    case("infiltration", "4 per district controlled alone", 4, ["", "", ""],
         agents={"the_agency": [2, 1, 0], "waste_management": [1, 1, 0]}),
    case("infiltration", "near miss: a shared district does not count", 0, ["", ""],
         agents={"waste_management": [1, 1]}),
    case("spionage", "4 per district controlled by others with an own agent", 4, ["", "", ""],
         agents={"the_agency": [1, 2, 0], "waste_management": [0, 1, 0]}),
    case("spionage", "near miss: a district red shares is not foreign-controlled", 0,
         ["", ""], agents={"the_agency": [1, 1]}),
    case("spionage", "a tie Bingmai decides for another player is foreign-controlled", 4,
         ["", "", ""], factions=[None, "bingmai_gamblers", None],
         map={"the_agency": "p6"}, agents={"the_agency": [1, 1, 1]}),
    case("dominanz", "10 per district with three own agents", 10, ["", ""],
         agents={"the_agency": [3, 0]}),
    case("dominanz", "near miss: two agents", 0, ["", ""], agents={"the_agency": [2, 1]}),
    case("spezialagenten", "an agent in every district", 10, ["", ""],
         agents={d: [1, 0] for d in ("the_agency", "the_gugu_airforce", "waste_management",
                                     "twilight_congress", "observatory_bank",
                                     "nethal_syndicate")}),
    case("spezialagenten", "near miss: five districts", 0, ["", ""],
         agents={d: [1, 0] for d in ("the_agency", "the_gugu_airforce", "waste_management",
                                     "twilight_congress", "observatory_bank")}
         | {"nethal_syndicate": [0, 1]}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["description"])
def test_mission(case: dict[str, Any]) -> None:
    result = score_position(build(case["input"]))
    red = result.players[0]
    (card,) = red.mission_results
    assert card.mission == case["mission"]
    assert card.stars == case["expected"]
    assert red.missions == case["expected"]


def test_every_card_has_a_success_and_a_near_miss() -> None:
    seen: dict[str, set[bool]] = {m: set() for m in MISSIONS}
    for c in CASES:
        seen[c["mission"]].add(c["expected"] > 0)
    assert {m: s for m, s in seen.items() if s != {True, False}} == {}


PRINTED_TITLES = [
    "WAFFENKAMMER", "GELD REGIERT DIE WELT", "INSIDER", "PAZIFIST", "FALSCHGELD",
    "FEHLINFORMATION", "SCHMUGGLER", "GELDWÄSCHE", "VERRÄTER", "TOTER BRIEFKASTEN",
    "BÜRGERWEHR", "GEHEIMKAMMERN", "WENIGER IST MEHR", "LANGSAM ABER STETIG", "STRASSENNYNTE",
    "GLÜCKSKLEE", "IM GROSSEN STIL", "MEHR IST BESSER", "KEIN KLEINGELD",
    "KONTAMINIERTER WAREN", "ALLES ODER NICHTS", "UNSICHTBAR", "RISIKOMANAGEMENT",
    "UNTER DEM RADAR", "FÄLSCHUNG", "REPLIK", "ALLER GUTEN DINGE SIND DREI", "KLONE",
    "DER GROSSE COUP", "ALLESKÖNNER", "EXZENTRIKER", "PERFEKTIONIST", "NOTAALRESERVE",
    "DISKRETION", "TRITTBRETTGÄNGER", "RISIKO", "INFILTRATION", "SPIONAGE", "DOMINANZ",
    "SPEZIALAGENTEN",
]


def test_the_deck_is_the_forty_cards_of_section_8_in_order() -> None:
    assert [card.title for card in MISSIONS.values()] == PRINTED_TITLES
    assert len(MISSIONS) == 40


@pytest.mark.parametrize("title,expected", [
    ("BÜRGERWEHR", "buergerwehr"), ("DER GROSSE COUP", "der_grosse_coup"),
    ("STRASSENNYNTE", "strassennynte"), ("NOTAALRESERVE", "notaalreserve"),
    ("ALLESKÖNNER", "alleskoenner"), ("GELDWÄSCHE", "geldwaesche"), ("Straße", "strasse"),
])
def test_ids_follow_the_issue_rule(title: str, expected: str) -> None:
    assert mission_id(title) == expected


def test_garbled_titles_keep_their_id_and_get_a_corrected_name() -> None:
    assert MISSIONS["notaalreserve"].name == "Notfallreserve"
    assert MISSIONS["trittbrettgaenger"].name == "Trittbrettfahrer"
    assert MISSIONS["kontaminierter_waren"].name == "Kontaminierte Waren"
    assert MISSIONS["strassennynte"].name == "Straßenmünze"


def test_only_the_copy_and_draw_cards_lack_a_function() -> None:
    special = {m.id: m.kind for m in MISSIONS.values() if m.score is None}
    assert special == {"trittbrettgaenger": MissionKind.COPY, "risiko": MissionKind.DRAW}
