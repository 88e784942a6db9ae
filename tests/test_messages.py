"""Sentences for players (``dicecam.messages``): a word follows its number ("1 die", "2
dice"; "1 Auge", "2 Augen"), in the engines' messages as on the page (issue 29, point 8)."""

from __future__ import annotations

import pytest

from dicecam.messages import Catalogue, render
from dicecam.scorer.registry import get_game

for _game in ("diceparty", "charidice", "v6"):  # their catalogues, loaded
    get_game(_game)

WORDS = Catalogue({"test.plural": {"en": "{n} {n:die|dice}, {k} {k:pip|pips}",
                                   "de": "{n} {n:Würfel|Würfeln}, {k} {k:Auge|Augen}"}})


@pytest.mark.parametrize(("n", "k", "en", "de"), [
    (1, 1, "1 die, 1 pip", "1 Würfel, 1 Auge"),
    (2, 0, "2 dice, 0 pips", "2 Würfeln, 0 Augen"),
    (0, 12, "0 dice, 12 pips", "0 Würfeln, 12 Augen"),
    (1.0, 2.5, "1.0 die, 2.5 pips", "1.0 Würfel, 2.5 Augen"),
])
def test_a_word_takes_the_form_its_number_asks_for(n: float, k: float, en: str,
                                                   de: str) -> None:
    message = WORDS("test.plural", n=n, k=k)
    assert message.text("en") == en and message.text("de") == de


def test_a_word_of_no_number_takes_the_plural() -> None:
    assert WORDS("test.plural", n="one", k=True).text() == "one dice, True pips"


@pytest.mark.parametrize(("msg", "params", "en", "de"), [
    ("v6.why.stop", {"pips": 1}, "stop and keep 1 pip", "aufhören und 1 Auge behalten"),
    ("v6.why.stop", {"pips": 17}, "stop and keep 17 pips", "aufhören und 17 Augen behalten"),
    ("v6.note.stops", {"player": "Ann", "pips": 1}, "Ann stops with 1 pip",
     "Ann hört mit 1 Auge auf"),
    ("v6.note.secured", {"pips": 1}, "; 1 pip secured", "; 1 Auge gesichert"),
    ("v6.note.victim_zombie", {"victim": "Bo", "n": 1}, "Bo is a zombie: +1 zombie pip",
     "Bo ist ein Zombie: +1 Zombie-Auge"),
    ("dp.seen", {"n": 1}, "1 die", "1 Würfel"),
    ("dp.seen", {"n": 40}, "40 dice", "40 Würfel"),
    ("dp.roll.ignored", {"n": 1}, "1 die, not counted: no throw was due",
     "1 Würfel, nicht gezählt: es war kein Wurf dran"),
    ("dp.ev.steals", {"player": "Ann", "n": 1, "counter": 1},
     "Ann steals 1 wallet; the counter die shows 1.",
     "Ann stiehlt 1 Geldbörse; der Zählwürfel zeigt 1."),
    ("dp.ev.wallets", {"player": "Ann", "n": 6}, "Ann has 6 wallets.",
     "Ann hat 6 Geldbörsen."),
    ("dp.mobs", {"n": 1}, "1 Mob", "1 Mob"),
    ("dp.mobs", {"n": 3}, "3 Mobs", "3 Mobs"),
    ("dp.mobs_short", {"n": 1, "due": 2}, "1 of 2 Mobs (the stock ran out)",
     "1 von 2 Mobs (der Vorrat ist leer)"),
    ("dp.mobs_short_leave", {"n": 1, "due": 2, "gone": 1},
     "1 of 2 Mobs (the stock ran out; 1 leaves instead)",
     "1 von 2 Mobs (der Vorrat ist leer; dafür geht 1)"),
    ("dp.mobs_short_leave", {"n": 0, "due": 3, "gone": 2},
     "0 of 3 Mobs (the stock ran out; 2 leave instead)",
     "0 von 3 Mobs (der Vorrat ist leer; dafür gehen 2)"),
    ("cd.thrown_out", {"player": "Ann", "n": 1},
     "Ann has thrown 1 time; choose how to score this throw",
     "Ann hat 1-mal geworfen; wähle, wie dieser Wurf gewertet wird"),
    ("dp.wait.game_over", {}, "the game is over", "das Spiel ist vorbei"),
])
def test_the_games_sentences_count_right(msg: str, params: dict, en: str, de: str) -> None:
    assert render(msg, params, "en") == en
    assert render(msg, params, "de") == de
