"""The rules' refusals a tablet's tap or the camera's reading can meet are messages, worded
in German for a German tablet (issue 59, item 4), not English sentences."""

from __future__ import annotations

from typing import Any

import pytest

from dicecam.errors import RuleError
from dicecam.scorer.registry import get_game


def refusal(game: str, config: dict[str, Any], *actions: dict[str, Any]) -> RuleError:
    codec = get_game(game).codec
    state = codec.new_game(config)
    with pytest.raises(RuleError) as caught:
        for action in actions:
            state = codec.apply(state, codec.action_from_json(action))
    return caught.value


SIX = [{"value": v, "colour": c} for v, c in
       zip([1, 2, 3, 4, 5, 6], ["red", "blue", "green", "purple", "black", "grey"], strict=True)]

#: a V6 evening of one group, Ann's round first; and her round's free throw
V6 = {"players": ["Ann", "Bo"], "seating": "in_order"}
V6_FREE_THROW = [{"type": "jokers", "jokers": []}, {"type": "throw", "value": 3}]


@pytest.mark.parametrize(("game", "config", "actions", "english", "german"), [
    ("charidice", {"players": ["Ann", "Bo"]},
     [{"type": "choose", "kind": "one_per_colour", "scored": [0]}],
     "throw the dice first, then choose how to score them",
     "wirf zuerst die Würfel, dann wähle"),
    ("charidice", {"players": ["Ann", "Bo"]},
     [{"type": "big_gift", "player": "Ann"}],
     "only Bo, who receives Ann's gift, may ask for the big gift now, not Ann",
     "nur Bo, die Person, die das Geschenk von Ann bekommt"),
    ("charidice", {"players": ["Ann", "Bo"]},
     [{"type": "throw", "dice": SIX}, {"type": "choose", "kind": "same_colour",
                                       "scored": [0, 1]}],
     "scoring one colour means every scored die shows that colour; these show blue and red",
     "diese zeigen blau und rot"),
    ("diceparty", {"players": ["Ann", "Bo"]}, [{"type": "grow", "option": "vip"}],
     "Growing the party is not possible now: every party is thrown",
     "Die Party wachsen lassen geht jetzt nicht: alle Partys werden geworfen"),
    ("dicetopia", {"players": [{"name": "Ann"}, {"name": "Bo"}]},
     [{"type": "set_dice", "zones": {"board:Ann": [{"colour": "purple", "value": 2}] * 6,
                                     "the_agency": [{"colour": "purple", "value": 3}]}}],
     "7 purple dice are in play, but a 2-player game uses 6",
     "7 Würfel in lila sind im Spiel, aber ein Spiel zu 2 benutzt 6"),
    ("v6", {"players": ["Ann", "Bo"]}, [{"type": "throw", "value": 3}],
     "set the groups first", "lege zuerst die Gruppen fest"),
    ("v6", {"players": ["Ann", "Bo", "Cem"]}, [{"type": "groups", "groups": [["Ann", "Bo"]]}],
     "the groups must hold every player exactly once (missing Cem)",
     "jeden Spieler genau einmal enthalten (es fehlt: Cem)"),
    ("v6", V6, [{"type": "throw", "value": 3}],
     "Ann names the jokers for the round first (up to three, or none)",
     "zuerst nennt Ann die Joker für die Runde"),
    ("v6", V6, [{"type": "jokers", "jokers": [], "free_choice": True}],
     "a free joker choice exists only in the final",
     "eine freie Jokerwahl gibt es nur im Finale"),
    ("v6", V6, [{"type": "jokers", "jokers": ["hirte"]}, {"type": "joker", "joker": "hirte"}],
     "cannot announce Hirtenschutz: jokers are announced after the free throw",
     "Hirtenschutz kann jetzt nicht angesagt werden: Joker werden erst nach dem Freiwurf"),
    ("v6", V6, [{"type": "jokers", "jokers": []}, {"type": "stop"}],
     "cannot stop now: the free throw comes first",
     "Aufhören geht jetzt nicht: zuerst kommt der Freiwurf"),
    ("v6", V6, [*V6_FREE_THROW, {"type": "end_fumo"}],
     "Fumo is not running, so it cannot be ended", "Fumo läuft nicht"),
    ("v6", V6, [{"type": "jokers", "jokers": ["monokel"]}, {"type": "throw", "value": 3},
                {"type": "joker", "joker": "monokel"}, {"type": "throw", "value": 4},
                {"type": "choose", "option": "fight"}],
     "'fight' is not an option now; choose keep or reroll",
     "„kämpfen“ steht jetzt nicht zur Wahl; wähle behalten oder nochmal werfen"),
    ("v6", V6, [{"type": "jokers", "jokers": ["sekante"]}, {"type": "throw", "value": 3},
                {"type": "joker", "joker": "sekante"}],
     "Senigmas Sekante needs an opponent: name one of Bo",
     "Senigmas Sekante braucht einen Gegner: nenne einen von Bo"),
    ("v6", V6, [{"type": "jokers", "jokers": ["ventil", "hirte"]}, {"type": "throw", "value": 3},
                {"type": "joker", "joker": "ventil"}, {"type": "joker", "joker": "hirte"}],
     "cannot announce Hirtenschutz: one joker per throw: Elas' Ventil must be finished first",
     "ein Joker pro Wurf: erst muss Elas' Ventil zu Ende gespielt sein"),
    ("v6", V6, [*V6_FREE_THROW, {"type": "steal", "victim": "Bo"}],
     "there is nothing to steal now: only a thieving one lets the player rob an opponent",
     "jetzt gibt es nichts zu stehlen"),
    ("v6", V6, [*V6_FREE_THROW, {"type": "throw", "value": 1}, {"type": "throw", "value": 2}],
     "cannot throw now: first choose whom the thieving one robs",
     "Werfen geht jetzt nicht: wähle zuerst, wen die diebische Eins bestiehlt"),
    ("v6", V6, [*V6_FREE_THROW, {"type": "let_six_stand"}],
     "there is no six for Runkelrüb to answer now",
     "jetzt gibt es keine Sechs, auf die der Runkelrüb antworten könnte"),
])
def test_a_refusal_is_said_in_the_players_language(game: str, config: dict[str, Any],
                                                    actions: list[dict[str, Any]],
                                                    english: str, german: str) -> None:
    error = refusal(game, config, *actions)
    assert error.message is not None, f"{error} is an English sentence, not a message"
    assert english in error.message.text("en")
    assert german in error.message.text("de")
