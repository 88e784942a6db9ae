"""Dice Party over JSON: the codec the web app drives, the camera adapter, and the
``dicecam score diceparty`` command line."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dicecam.errors import InputError, RuleError
from dicecam.messages import english, render
from dicecam.scorer.diceparty import codec as codec
from dicecam.scorer.diceparty import rules as dp
from dicecam.scorer.diceparty.adapter import action_from_roll
from dicecam.scorer.registry import get_game, replay
from tests.support.readings import read_dice

EXAMPLE = Path(codec.__file__).with_name("example-party.json")


def run_cli(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dicecam", "score", "diceparty", *args],
                          input=stdin, capture_output=True, text=True, timeout=120)


def dice(text: str) -> list[dict[str, Any]]:
    kinds = {"P": "party_people", "V": "vip", "M": "mob"}
    return [{"kind": kinds[w[0]], "pips": int(w[1:])} for w in text.split()]


# --- the codec -----------------------------------------------------------------------------


def test_registered_as_a_game() -> None:
    assert get_game("diceparty").codec is codec
    assert codec.TITLE == "Dice Party"


ACTIONS: list[dict[str, Any]] = [
    {"type": "preparty", "throws": {"Anna": dice("P1 P2 V3 V4"), "Ben": dice("P6 P6 V6 V6")}},
    {"type": "throw", "dice": dice("P6 V4 M2")},
    {"type": "throw", "dice": []},
    {"type": "pickpocket", "count": 2},
    {"type": "provoke", "count": 2, "order": ["Cleo", "Ben"]},
    {"type": "provoke", "count": 0, "order": []},
    {"type": "grow", "option": "vip"},
    {"type": "grow", "option": "party_people"},
    {"type": "next_round"},
]


@pytest.mark.parametrize("data", ACTIONS, ids=[a["type"] for a in ACTIONS])
def test_actions_round_trip(data: dict[str, Any]) -> None:
    action = codec.action_from_json(data)
    assert codec.action_to_json(action) == data
    assert codec.action_from_json(codec.action_to_json(action)) == action


@pytest.mark.parametrize(("data", "message"), [
    ({"type": "dance"}, "action.type must be one of"),
    ({"type": "throw", "dice": [{"kind": "guest", "pips": 3}]}, r"action.dice\[0\].kind"),
    ({"type": "throw", "dice": [{"kind": "vip", "pips": 7}]}, r"action.dice\[0\].pips"),
    ({"type": "throw", "dice": dice(" ".join(["V1"] * 21))}, "more than the 20"),
    ({"type": "pickpocket", "count": -1}, "action.count"),
    ({"type": "pickpocket", "count": True}, "action.count"),
    ({"type": "provoke", "count": 1, "order": "Ben"}, "action.order must be a JSON list"),
    ({"type": "grow", "option": "both"}, "action.option must be one of vip, party_people"),
    ({"type": "grow", "option": "vip", "count": 3}, "unknown field"),
    ({"type": "preparty", "throws": []}, "action.throws must be a JSON object"),
])
def test_bad_actions_name_the_field(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        codec.action_from_json(data)


@pytest.mark.parametrize(("config", "message"), [
    ({"players": ["Anna"]}, "config.players must hold 2 to 8"),
    ({"players": ["Anna", 3]}, r"config.players\[1\] must be a string"),
    ({"players": ["Anna", "Ben"], "party_animal": "yes"}, "config.party_animal"),
    ({"players": ["Anna", "Ben"], "mode": "x"}, "unknown field"),
    ({"players": ["Anna", "Anna"]}, "must differ"),
])
def test_bad_configs(config: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        codec.new_game(config)


def test_replay_of_a_stored_game_and_its_state_json() -> None:
    actions = [
        {"type": "preparty", "throws": {"Anna": dice("P6 P6 V6 V6"), "Ben": dice("P1 P1 V1 V1"),
                                        "Cleo": dice("P1 P1 V1 V2")}},
        {"type": "throw", "dice": dice("P6 P6 V5 V4")},
        {"type": "pickpocket", "count": 1},
        {"type": "provoke", "count": 2, "order": ["Cleo", "Ben"]},
    ]
    state = replay("diceparty", {"players": ["Anna", "Ben", "Cleo"]}, actions)
    data = codec.state_to_json(state)
    json.dumps(data)  # plain JSON all the way down
    assert data["phase"] == "grow" and data["active"] == "Anna"
    assert data["legal"] == [{"type": "grow", "min": 0, "max": 0,
                              "options": ["vip", "party_people"]}]
    anna, ben, cleo = data["players"]
    assert anna["counter_die"] == 1 and anna["party"] == {"party_people": 1, "vip": 0, "mob": 0}
    assert ben["party"]["mob"] == 1 and cleo["party"]["mob"] == 2
    for p in data["players"]:
        assert p["set_total"] == {"party_people": 20, "vip": 20, "mob": 20}
    turn = data["turn"]
    assert turn["provoked"] == dice("V5 V4") and turn["stolen"] == 1
    assert [d["player"] for d in turn["deliveries"]] == ["Cleo", "Ben"]
    options = data["growth_options"]
    # a real choice: 6 Party People points bring a VIP, 0 VIP points nobody
    assert options["vip_option"]["points"] == 6 and options["vip_option"]["new_vips"] == 1
    assert options["party_people_option"]["new_party_people"] == 0
    state = codec.apply(state, codec.action_from_json({"type": "grow", "option": "vip"}))
    data = codec.state_to_json(state)
    assert data["active"] == "Ben" and data["turn"] is None
    assert data["last_turn"]["growth"]["option"] == "vip"


def test_state_json_explains_an_escalation() -> None:
    state = codec.new_game({"players": ["Anna", "Ben"]})
    state = codec.apply(state, codec.action_from_json(
        {"type": "preparty", "throws": {"Anna": dice("P6 P6 V6 V6"),
                                        "Ben": dice("P1 P1 V1 V1")}}))
    state = codec.apply(state, codec.action_from_json({"type": "throw",
                                                       "dice": dice("P6 P6 V6 V6")}))
    state = codec.apply(state, codec.action_from_json({"type": "pickpocket", "count": 0}))
    state = codec.apply(state, codec.action_from_json(
        {"type": "provoke", "count": 2, "order": ["Ben"]}))
    state = codec.apply(state, codec.action_from_json({"type": "grow", "option": "vip"}))
    state = codec.apply(state, codec.action_from_json({"type": "throw",
                                                       "dice": dice("P1 P1 V1 V1 M6 M2")}))
    data = codec.state_to_json(state)
    assert data["phase"] == "game_over"
    assert data["game_result"] == {"winner": "Anna", "outcome": "escalation"}
    verdict = data["last_turn"]["escalation"]
    assert verdict["escalated"] and verdict["mob_level"] == 8 and verdict["guest_level"] == 4
    assert verdict["uncovered_mobs"] == dice("M6")
    assert [english(g["text"]) for g in verdict["groups"]] == ["VIP 1 + VIP 1 = Mob 2"]
    assert render(verdict["groups"][0]["text"]["msg"], verdict["groups"][0]["text"]["params"],
                  "de") == "VIP 1 + VIP 1 = Mob 2"
    assert verdict["spare_guests"] == dice("P1 P1")
    assert data["legal"] == []


def test_rule_errors_are_sentences() -> None:
    state = codec.new_game({"players": ["Anna", "Ben"]})
    with pytest.raises(RuleError, match="not possible now: every party is thrown"):
        codec.apply(state, codec.action_from_json({"type": "grow", "option": "vip"}))


# --- the camera adapter --------------------------------------------------------------------


roll = read_dice


def test_preparty_roll_maps_zones_to_players_and_colours_to_kinds() -> None:
    state = codec.new_game({"players": ["Anna", "Ben"]})
    action = action_from_roll(state, roll(
        (6, "yellow", "Anna"), (5, "yellow", "Anna"), (4, "orange", "Anna"), (3, "orange", "Anna"),
        (1, "yellow", "Ben"), (2, "yellow", "Ben"), (1, "orange", "Ben"), (1, "orange", "Ben"),
        (6, "yellow", None), (6, "red", "stock")))
    assert codec.action_to_json(action) == {
        "type": "preparty",
        "throws": {"Anna": dice("P6 P5 V4 V3"), "Ben": dice("P1 P2 V1 V1")}}
    state = codec.apply(state, action)
    assert state.active == 0


def test_throw_roll_takes_the_active_zone_only() -> None:
    state = codec.new_game({"players": ["Anna", "Ben"]})
    state = codec.apply(state, codec.action_from_json(
        {"type": "preparty", "throws": {"Anna": dice("P1 P1 V1 V1"),
                                        "Ben": dice("P6 P6 V6 V6")}}))
    action = action_from_roll(state, roll(
        (3, "yellow", "Ben"), (2, "yellow", "Ben"), (5, "orange", "Ben"), (1, "orange", "Ben"),
        (4, "red", "Ben"), (6, "yellow", "Anna")))
    assert action == dp.Throw(tuple(codec.die_from_json(d, "d")
                                    for d in dice("P3 P2 V5 V1 M4")))
    with pytest.raises(RuleError, match="the throw shows 2 Party People, 2 VIP and 1 Mob"):
        codec.apply(state, action)
    state = codec.apply(state, action_from_roll(state, roll(
        (3, "yellow", "Ben"), (2, "yellow", "Ben"), (5, "orange", "Ben"), (1, "orange", "Ben"))))
    # no Party People at 6: nothing to steal, so the turn waits on the VIP at 5 (step 5)
    assert state.phase == dp.Phase.PROVOKE
    assert action_from_roll(state, roll((3, "yellow", "Ben"))) is None


def test_party_zones_named_as_the_calibration_suggests_count_for_their_player() -> None:
    # `dicecam calibrate zones` names a drawn party area "party:NAME" (docs/calibration.md)
    state = codec.new_game({"players": ["Anna", "Ben"]})
    action = action_from_roll(state, roll(
        (6, "yellow", "party:anna"), (5, "yellow", "party:anna"), (4, "orange", "party:anna"),
        (3, "orange", "party:anna"), (1, "yellow", "party:ben"), (2, "yellow", "party:ben"),
        (1, "orange", "Ben"), (1, "orange", "Ben"), (6, "orange", "party:annabel")))
    assert codec.action_to_json(action)["throws"] == {"Anna": dice("P6 P5 V4 V3"),
                                                      "Ben": dice("P1 P2 V1 V1")}


@pytest.mark.parametrize(("item", "message"), [
    ((None, "yellow", "Anna"), "could not be read"),
    ((3, None, "Anna"), "colour None"),
    ((3, "green", "Anna"), "colour green, not one of yellow, orange and red"),
])
def test_unreadable_dice_in_a_party_zone_ask_for_a_correction(
        item: tuple[int | None, str | None, str | None], message: str) -> None:
    state = codec.new_game({"players": ["Anna", "Ben"]})
    with pytest.raises(InputError, match=message):
        action_from_roll(state, roll(item))


# --- dicecam score diceparty ---------------------------------------------------------------


def test_score_matches_the_issue_format() -> None:
    out = codec.score({"party": dice("P6 P6 V5 V4 V4 M3")})
    assert {"escalated", "mob_level", "guest_level", "millionaire", "pickpocketable",
            "provokable", "growth"} <= set(out)
    assert out["growth"]["vip_option"] == {
        "option": "vip", "points": 12, "due_vips": 2, "new_vips": 2, "due_mobs": 1,
        "new_mobs": 1, "removed": {"party_people": 0, "vip": 0}, "unfilled_mobs": 0}
    assert out["growth"]["party_people_option"]["new_party_people"] == 2
    assert (out["pickpocketable"], out["provokable"]) == (2, 3)


def test_a_kind_left_out_of_the_stock_is_as_full_as_the_party_allows() -> None:
    party = dice("P6 P6 V6 V6")
    only_mobs_short = codec.score({"party": party, "stock": {"mob": 0}})
    assert only_mobs_short["stock"] == {"party_people": 18, "vip": 18, "mob": 0}
    assert only_mobs_short["growth"]["vip_option"]["new_vips"] == 2
    assert only_mobs_short["growth"]["vip_option"]["new_mobs"] == 0


def test_cli_scores_the_bundled_example() -> None:
    result = run_cli("--indent", "2", stdin=EXAMPLE.read_text())
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["escalated"] is True
    assert out["escalation"]["uncovered_mobs"]
    assert out["escalation"]["groups"]
    assert out["mob_level"] > out["guest_level"]


@pytest.mark.parametrize(("stdin", "message"), [
    ("{", "not valid JSON"),
    ("[]", "input must be a JSON object"),
    ("{}", "needs a \"party\""),
    (json.dumps({"party": dice("P1") + [{"kind": "clown", "pips": 2}]}), r"party\[1\].kind"),
    (json.dumps({"party": [{"kind": "vip", "pips": 0}]}), r"party\[0\].pips"),
    (json.dumps({"party": [{"kind": "vip", "pips": 2.5}]}), r"party\[0\].pips"),
    (json.dumps({"party": dice(" ".join(["M2"] * 21))}), "21 dice of kind mob"),
    (json.dumps({"party": dice("P1"), "stock": {"party_people": 20}}), "21 dice of kind"),
    (json.dumps({"party": dice("P1"), "stock": {"vips": 2}}), "unknown field"),
    (json.dumps({"party": dice("P1"), "stock": {"vip": -1}}), "stock.vip"),
    (json.dumps({"party": dice("P1"), "extra": 1}), "unknown field"),
    ('{"party": [{"kind": "vip", "pips": ' + "1" * 5000 + "}]}", "not usable JSON"),
    ("[" * 100_000, "nested too deeply"),
])
def test_cli_bad_input_is_one_line_and_status_2(stdin: str, message: str) -> None:
    result = run_cli(stdin=stdin)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr
    assert re.search(message, lines[0]), lines[0]


def test_score_agrees_with_the_engine_on_random_parties() -> None:
    """The command and the game engine share their checks: same party, same verdict."""
    rng = random.Random(5)
    for _ in range(100):
        party = dice(" ".join(f"{rng.choice('PVM')}{rng.randint(1, 6)}"
                              for _ in range(rng.randint(1, 20))))
        out = codec.score({"party": party})
        mobs = sum(d["pips"] for d in party if d["kind"] == "mob")
        guests = sum(d["pips"] for d in party if d["kind"] != "mob")
        assert out["escalated"] == (mobs > guests)
        assert (out["mob_level"], out["guest_level"]) == (mobs, guests)


def test_without_zones_the_preparty_is_thrown_party_by_party() -> None:
    state = codec.new_game({"players": ["Anna", "Ben"]})
    anna = roll((6, "yellow", None), (5, "yellow", None), (4, "orange", None), (3, "orange", None))
    action = action_from_roll(state, anna)
    assert codec.action_to_json(action) == {"type": "preparty",
                                            "throws": {"Anna": dice("P6 P5 V4 V3")}}
    state = codec.apply(state, action)
    assert english(codec.state_to_json(state)["waiting_for"]) == "Ben throws the preparty"
    assert codec.state_to_json(state)["preparty_thrown"] == {"Anna": 18}
    ben = roll((1, "yellow", None), (1, "yellow", None), (1, "orange", None), (1, "orange", None))
    state = codec.apply(state, action_from_roll(state, ben))
    assert state.phase == dp.Phase.THROW and state.active == 0
    assert action_from_roll(codec.new_game({"players": ["Anna", "Ben"]}), []) is None
