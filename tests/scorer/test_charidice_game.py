"""Charidice: a whole game through the JSON codec (what the web app drives).

Rulebook: /work/shared/seeds/charidice-rules-de.md. The first round replays the rulebook's
three turn examples at one table, seated Lena -> Marko -> Florian (Lena gives to Marko,
Florian to Lena, and Florian asks Marko for the big gift, as the examples say). The dice
are reconstructed (pictures missing): see tests/test_charidice_options.py.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from dicecam.errors import InputError, RuleError
from dicecam.messages import english
from dicecam.scorer.charidice import codec as codec
from dicecam.scorer.charidice.adapter import action_from_roll
from dicecam.scorer.registry import get_game, replay
from tests.support.readings import read_dice

PLAYERS = ["Lena", "Marko", "Florian"]


def throw(*dice: tuple[str, int]) -> dict:
    return {"type": "throw", "dice": [{"colour": c, "value": v} for c, v in dice]}


LENA_FIRST = throw(("red", 1), ("red", 2), ("blue", 5), ("green", 3), ("grey", 1), ("blue", 6))
# Lena keeps red 1, red 2 and blue 6; her second throw is Beispiel 1's dice.
LENA_DICE = throw(("red", 1), ("red", 2), ("red", 3), ("red", 4), ("red", 6), ("blue", 6))
MARKO_1 = throw(("red", 1), ("blue", 2), ("green", 4), ("grey", 4), ("black", 5), ("red", 2))
MARKO_2 = throw(("red", 1), ("blue", 2), ("red", 3), ("grey", 6), ("green", 5), ("red", 2))
MARKO_3 = throw(("red", 1), ("blue", 2), ("red", 3), ("red", 4), ("green", 5), ("red", 2))
FLORIAN_DICE = throw(("red", 2), ("blue", 2), ("green", 2), ("black", 2), ("black", 6),
                     ("grey", 6))

ROUND_ONE = [
    LENA_FIRST,
    {"type": "keep", "kept": [0, 1, 5]},
    LENA_DICE,
    # Beispiel 1 (Fortsetzung): Lena scores 2 3 4 6 for 30 and gives 1 and 6 (13) to Marko.
    {"type": "choose", "kind": "same_colour", "scored": [1, 2, 3, 4]},
    MARKO_1,
    {"type": "keep", "kept": [0, 1, 5]},
    MARKO_2,
    # Das große Geschenk: Florian asks Marko before the third throw.
    {"type": "big_gift", "player": "Florian"},
    {"type": "keep", "kept": [0, 1, 2, 4, 5]},
    MARKO_3,
    # Marko scores the red straight 1 2 3 4 and gives 2 and 5: 12, doubled to 24.
    {"type": "choose", "kind": "same_colour", "scored": [0, 2, 3, 5]},
    FLORIAN_DICE,
    # Beispiel 2 (Fortsetzung): Florian scores 2 2 2 6 6 for 18 and gives 2 to Lena.
    {"type": "choose", "kind": "one_per_colour", "scored": [0, 1, 2, 4, 5]},
]


def play(actions: list[dict], players: list[str] = PLAYERS, **config) -> object:
    return replay("charidice", {"players": players, **config}, actions)


def test_round_one_replays_the_rulebook_examples() -> None:
    state = codec.state_to_json(play(ROUND_ONE))
    rows = {p["name"]: p["rows"][0] for p in state["players"]}
    assert rows == {
        "Lena": [15, 15, 2, 13],
        "Marko": [10, 25, 13, 24],
        "Florian": [18, 0, 24, 2],
    }
    assert [p["big_gift_used"] for p in state["players"]] == [False, False, True]
    assert state["round"] == 2 and state["active"] == "Lena" and state["recipient"] == "Marko"
    assert state["last"]["option"]["gift"] == 2
    assert "Florian scored 18 + 0 bonus and gave 2 to Lena." in english(state["explanation"])


def test_options_offered_during_a_turn_are_ranked_with_best_and_most_given() -> None:
    state = codec.state_to_json(play(ROUND_ONE[:3]))
    assert state["options"][0] == {"kind": "same_colour", "scored": [0, 1, 2, 3], "points": 10,
                                   "bonus": 25, "combination": "straight_4", "total": 35,
                                   "gift": 24}
    assert state["best_points"] == 0 and state["most_given"] == 0
    assert {"kind": "same_colour", "scored": [1, 2, 3, 4], "points": 15, "bonus": 15,
            "combination": "four_of_colour", "total": 30, "gift": 13} in state["options"]


def test_big_gift_doubles_the_offered_gifts() -> None:
    state = codec.state_to_json(play(ROUND_ONE[:10]))
    assert state["turn"]["big_gift"] is True
    chosen = [o for o in state["options"] if o["scored"] == [0, 2, 3, 5]]
    assert chosen[0]["gift"] == 24


def test_legal_actions_follow_the_turn() -> None:
    def types(n: int) -> list[str]:
        return [a["type"] for a in codec.state_to_json(play(ROUND_ONE[:n]))["legal"]]

    assert types(0) == ["throw", "big_gift"]
    assert types(1) == ["throw", "keep", "choose", "big_gift"]
    assert types(9) == ["throw", "keep", "choose"]  # Florian has asked already
    assert types(10) == ["choose"]  # three throws made


ILLEGAL = [
    (ROUND_ONE[:1] + [{"type": "keep", "kept": [0, 1, 2, 3, 4, 5]}], "keeping all six"),
    ([{"type": "keep", "kept": [0]}], "throw the dice first"),
    ([{"type": "choose", "kind": "one_per_colour", "scored": [0]}], "throw the dice first"),
    (ROUND_ONE[:2] + [throw(("red", 1), ("blue", 2), ("red", 3), ("red", 4), ("red", 6),
                            ("blue", 6))], "kept red 2 is not in the new throw"),
    (ROUND_ONE[:4] + [{"type": "big_gift", "player": "Lena"}], "only Florian"),
    (ROUND_ONE[:7] + [{"type": "big_gift", "player": "Florian"}] * 2, "already asked"),
    (ROUND_ONE[:10] + [{"type": "big_gift", "player": "Florian"}], "already asked"),
    (ROUND_ONE[:10] + [MARKO_3], "has thrown 3 times"),
    (ROUND_ONE[:10] + [{"type": "keep", "kept": [0]}], "no throw left"),
    (ROUND_ONE[:3] + [{"type": "choose", "kind": "same_colour", "scored": [0, 1, 2]}],
     "score all 5 red dice"),
    (ROUND_ONE[:3] + [{"type": "choose", "kind": "one_per_colour", "scored": [0]}],
     "none is scored for blue"),
    (ROUND_ONE[:1] + [throw(("red", 1), ("red", 2), ("blue", 5), ("green", 3), ("black", 1),
                            ("white", 6)),
                      throw(("pink", 1), ("red", 2), ("blue", 5), ("green", 3), ("grey", 1),
                            ("white", 6))], "only 6 colours"),
]


@pytest.mark.parametrize(("actions", "message"), ILLEGAL)
def test_illegal_actions_are_refused_with_a_reason(actions: list[dict], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        play(actions)


def test_a_later_player_may_still_ask_in_the_next_round_and_not_twice() -> None:
    after = ROUND_ONE + [{"type": "big_gift", "player": "Marko"}, LENA_DICE,
                         {"type": "choose", "kind": "same_colour", "scored": [0, 1, 2, 3]}]
    state = codec.state_to_json(play(after))
    lena, marko = state["players"][0], state["players"][1]
    assert lena["rows"][1] == [10, 25, None, 48] and marko["rows"][1][2] == 48
    with pytest.raises(RuleError, match="Florian has already asked"):
        play(after + [{"type": "big_gift", "player": "Florian"}])


def test_a_big_gift_that_turns_out_to_be_zero_is_still_used_up() -> None:
    straight_6 = throw(*(("red", v) for v in range(1, 7)))
    actions = [{"type": "big_gift", "player": "Ben"}, straight_6,
               {"type": "choose", "kind": "same_colour", "scored": [0, 1, 2, 3, 4, 5]}]
    state = codec.state_to_json(play(actions, ["Ana", "Ben"]))
    ana, ben = state["players"]
    assert ana["rows"][0] == [21, 50, None, 0] and ben["rows"][0][2] == 0
    assert ben["big_gift_used"] is True
    ben_turn = [LENA_DICE, {"type": "choose", "kind": "same_colour", "scored": [1, 2, 3, 4]}]
    with pytest.raises(RuleError, match="Ben has already asked"):
        play(actions + ben_turn + [{"type": "big_gift", "player": "Ben"}], ["Ana", "Ben"])


def test_a_later_keep_replaces_the_earlier_one() -> None:
    actions = ROUND_ONE[:2] + [{"type": "keep", "kept": [0]}]
    assert codec.state_to_json(play(actions))["turn"]["kept"] == [0]
    # red 2 and blue 6 are no longer kept, so a throw without them is accepted
    state = play(actions + [throw(("green", 4), ("red", 1), ("grey", 3), ("red", 5),
                                  ("black", 2), ("blue", 1))])
    assert state.turn.throws == 2 and state.turn.kept == ()


def test_game_ends_after_seven_rounds_with_charity_bonus_and_winners() -> None:
    # every turn: throw Lena's dice once and score the red 2 3 4 6 (30 points, gift 13)
    turn = [LENA_DICE, {"type": "choose", "kind": "same_colour", "scored": [1, 2, 3, 4]}]
    actions = turn * (7 * 2)
    state = play(actions, ["Ana", "Ben"])
    data = codec.state_to_json(state)
    assert data["phase"] == "over" and data["legal"] == [] and data["options"] == []
    for player in data["players"]:
        assert player["rolled"] == 7 * 15 and player["bonus"] == 7 * 15
        assert player["received"] == 7 * 13 and player["given"] == 7 * 13
        assert player["charity_bonus"] == 30  # 91 given, tied: both get it
        assert player["total"] == 105 + 105 + 91 + 30
    assert data["winners"] == ["Ana", "Ben"]
    assert "Game over: Ana and Ben win." in english(data["explanation"])
    with pytest.raises(RuleError, match="game is over"):
        codec.apply(state, codec.action_from_json(LENA_DICE))


def test_rounds_is_a_variant() -> None:
    turn = [LENA_DICE, {"type": "choose", "kind": "same_colour", "scored": [1, 2, 3, 4]}]
    assert codec.state_to_json(play(turn * 2, ["Ana", "Ben"], rounds=1))["phase"] == "over"


@pytest.mark.parametrize(("config", "message"), [
    ({"players": ["A"]}, "2 to 4 items"),
    ({"players": ["A", "B", "C", "D", "E"]}, "2 to 4 items"),
    ({"players": ["A", "A"]}, "names must differ"),
    ({"players": ["A", ""]}, "non-empty name"),
    ({"players": ["A", "B"], "rounds": 0}, "rounds"),
    ({"players": ["A", "B"], "colour": "x"}, "unknown field"),
])
def test_bad_configs_are_refused(config: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        codec.new_game(config)


@pytest.mark.parametrize(("action", "message"), [
    ({"type": "roll"}, "action.type must be one of"),
    ({"type": "throw", "dice": [{"colour": "red", "value": 1}] * 5}, "exactly 6 items"),
    ({"type": "throw", "dice": [{"colour": "red", "value": 7}] * 6}, "from 1 to 6"),
    ({"type": "throw", "dice": [{"colour": " ", "value": 2}] * 6}, "must name a colour"),
    ({"type": "keep", "kept": [6]}, "from 0 to 5"),
    ({"type": "choose", "kind": "pairs", "scored": [0]}, "action.kind"),
    ({"type": "big_gift"}, "action.player must be a string"),
])
def test_bad_actions_are_refused(action: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        codec.action_from_json(action)


def test_actions_round_trip_through_json() -> None:
    for data in ROUND_ONE:
        action = codec.action_from_json(data)
        assert codec.action_from_json(codec.action_to_json(action)) == action
        assert codec.action_to_json(action) == data


def test_action_from_roll_reads_the_six_dice_in_the_tray() -> None:
    state = play([])
    roll = read_dice(*[(v, "Red", "tray") for v in range(1, 7)], (3, "blue", "score sheet"))
    action = action_from_roll(state, roll)
    assert codec.action_to_json(action)["dice"] == [{"colour": "red", "value": v}
                                                    for v in range(1, 7)]
    no_zones = read_dice(*[(v, "red", None) for v in range(1, 7)])
    assert action_from_roll(state, no_zones) == action
    with pytest.raises(InputError, match="sees 5"):
        action_from_roll(state, no_zones[:5])
    with pytest.raises(InputError, match="could not be read"):
        action_from_roll(state, no_zones[:5] + read_dice((None, "red", None)))
    assert action_from_roll(play(ROUND_ONE[:10]), no_zones) is None  # three throws made


def test_state_json_is_plain_json() -> None:
    data = codec.state_to_json(play(ROUND_ONE[:9]))
    assert json.loads(json.dumps(data)) == data
    assert get_game("charidice").codec is codec


def test_random_games_keep_the_invariants() -> None:
    rng = random.Random(2026)
    palette = ["red", "blue", "green", "grey", "black", "white"]
    for _ in range(100):
        players = [f"P{i}" for i in range(rng.randint(2, 4))]
        state = codec.new_game({"players": players})
        actions: list[dict] = []
        dice: list[dict] = []
        chooses = 0
        asked: list[str] = []
        while state.turn is not None:
            legal = [a["type"] for a in codec.state_to_json(state)["legal"]]
            kind = rng.choice(legal)
            if kind == "throw":
                kept = [dice[i] for i in state.turn.kept]
                fresh = [{"colour": rng.choice(palette[:rng.choice([2, 3, 6])]),
                          "value": rng.randint(1, 6)} for _ in range(6 - len(kept))]
                dice = kept + fresh
                rng.shuffle(dice)
                data = {"type": "throw", "dice": dice}
            elif kind == "keep":
                data = {"type": "keep", "kept": sorted(rng.sample(range(6), rng.randint(0, 5)))}
            elif kind == "big_gift":
                asker = players[(state.turn.player + 1) % len(players)]
                asked.append(asker)
                data = {"type": "big_gift", "player": asker}
            else:
                options = codec.state_to_json(state)["options"]
                assert options, "a throw always has an option"
                option = rng.choice(options)
                data = {"type": "choose", "kind": option["kind"], "scored": option["scored"]}
                chooses += 1
            state = codec.apply(state, codec.action_from_json(data))
            actions.append(data)
        assert chooses == 7 * len(players)
        assert len(asked) == len(set(asked))
        final = codec.state_to_json(state)
        rows = [row for p in final["players"] for row in p["rows"]]
        assert all(None not in row for row in rows)
        assert all(1 <= row[0] <= 36 and row[1] in {0, 15, 25, 30, 40, 50, 60} for row in rows)
        assert sum(p["given"] for p in final["players"]) == sum(
            p["received"] for p in final["players"])
        n = len(players)
        for i, p in enumerate(final["players"]):
            left = final["players"][(i + 1) % n]
            assert [r[3] for r in p["rows"]] == [r[2] for r in left["rows"]]
        best = max(p["total"] for p in final["players"])
        assert final["winners"] == [p["name"] for p in final["players"] if p["total"] == best]
        most = max(p["given"] for p in final["players"])
        for p in final["players"]:
            expected = (30 if most > 60 else 20) if p["given"] == most else 0
            assert p["charity_bonus"] == expected
            assert p["total"] == p["rolled"] + p["bonus"] + p["received"] + expected
        assert codec.state_to_json(replay("charidice", {"players": players}, actions)) == final


def run_cli(game: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dicecam", "score", game],
                          input=stdin, capture_output=True, text=True, timeout=60)


def test_cli_lists_options_best_first() -> None:
    result = run_cli("charidice", json.dumps({"dice": FLORIAN_DICE["dice"]}))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert [(o["kind"], o["scored"], o["points"], o["bonus"], o["gift"])
            for o in out["options"]] == [("one_per_colour", [0, 1, 2, 3], 8, 15, 24),
                                         ("one_per_colour", [0, 1, 2, 4, 5], 18, 0, 2),
                                         ("one_per_colour", [0, 1, 2, 3, 5], 14, 0, 12)]
    assert out["best_points"] == 0 and out["most_given"] == 0


@pytest.mark.parametrize(("payload", "message"), [
    ({"dice": LENA_DICE["dice"][:5]}, "exactly 6 items"),
    ({"dice": [{"colour": "red", "value": 0}] * 6}, "from 1 to 6"),
    ({"dice": [{"colour": "red"}] * 6}, "value must be an integer"),
    ({"dice": LENA_DICE["dice"], "big_gift": "yes"}, "true or false"),
    ([1, 2], "must be a JSON object"),
])
def test_cli_refuses_bad_dice_in_one_line(payload: object, message: str) -> None:
    result = run_cli("charidice", json.dumps(payload))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert message in result.stderr


def test_charity_bonus_waits_for_the_end_but_the_race_is_shown() -> None:
    start = codec.state_to_json(play([]))
    assert [p["total"] for p in start["players"]] == [0, 0, 0]
    assert start["charity_leaders"] == []
    data = codec.state_to_json(play(ROUND_ONE))
    assert [p["charity_bonus"] for p in data["players"]] == [0, 0, 0]
    assert [p["total"] for p in data["players"]] == [15 + 15 + 2, 10 + 25 + 13, 18 + 24]
    assert data["charity_leaders"] == ["Marko"]
