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
])
def test_a_refusal_is_said_in_the_players_language(game: str, config: dict[str, Any],
                                                    actions: list[dict[str, Any]],
                                                    english: str, german: str) -> None:
    error = refusal(game, config, *actions)
    assert error.message is not None, f"{error} is an English sentence, not a message"
    assert english in error.message.text("en")
    assert german in error.message.text("de")
