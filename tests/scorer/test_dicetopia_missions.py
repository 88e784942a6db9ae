"""Every Dicetopia mission card (rulebook section 8): a success and a near miss each, plus
the readings chosen for the ambiguous cards (see dicecam/scorer/dicetopia/missions.py).

Each case gives red (the first player) one card and scores the whole table, so the cards
are tested through the engine, on positions a real table allows (two players unless more
boards are given: 6 dice of each colour, 3 fields per district)."""

from __future__ import annotations

from typing import Any

import pytest

from dicecam.scorer.dicetopia.missions import MISSIONS, MissionKind, mission_id
from dicecam.scorer.dicetopia.scoring import score_position
from dicecam.scorer.registry import get_game
from tests.support.dicetopia import build

CASES = get_game("dicetopia").worked_examples("mission")


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


def test_german_players_read_the_rule_english_players_read() -> None:
    """Issue 59, item 4: where the English reading adds what the printed card leaves out
    (ties split, pairs disjoint, a non-empty board), the German text says it too."""
    from dicecam.scorer.dicetopia.codec import catalogue
    from dicecam.scorer.dicetopia.missions import MISSION_READINGS_DE
    assert set(MISSION_READINGS_DE) <= set(MISSIONS)
    shown = catalogue()["missions"]
    for mission in MISSIONS.values():
        english, german = (shown[mission.id]["rules"][lang] for lang in ("en", "de"))
        if "ties split" in english:
            assert "bei Gleichstand geteilt, aufgerundet" in german, mission.id
        if "disjoint" in english:
            assert "höchstens einem Paar" in german, mission.id
        if "non-empty" in english:
            assert "nicht leeren" in german, mission.id
