"""V6 over JSON: the web app's codec (an evening) and ``dicecam score v6`` (one round)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from dicecam.errors import InputError, RuleError
from dicecam.scorer.registry import get_game, replay
from dicecam.scorer.v6 import codec as codec
from dicecam.scorer.v6 import player_round as r
from dicecam.scorer.v6.adapter import action_from_roll
from tests.support.readings import read_dice

CONFIG = {"players": ["Ann", "Bea", "Cem", "Dan"], "groups": [["Ann", "Bea", "Cem", "Dan"]]}

# docs/v6.md's worked example: the rulebook's Runkelrüb round
RUNKELRUEB_ROUND = {
    "player": "Ann",
    "jokers": ["fumo", "kaelte", "runkelrueb"],
    "opponents": [{"name": "Bea", "total": 12}],
    "events": [
        {"type": "throw", "value": 6}, {"type": "joker", "joker": "kaelte"},
        {"type": "throw", "value": 4}, {"type": "joker", "joker": "kaelte"},
        {"type": "throw", "value": 3}, {"type": "joker", "joker": "kaelte"},
        {"type": "throw", "value": 6}, {"type": "joker", "joker": "fumo"},
        {"type": "throw", "value": 1}, {"type": "throw", "value": 4},
        {"type": "throw", "value": 6}, {"type": "throw", "value": 3},
        {"type": "throw", "value": 1}, {"type": "stop"},
    ],
}


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dicecam", *args], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_codec_is_registered() -> None:
    assert get_game("v6").codec is codec
    assert codec.TITLE


@pytest.mark.parametrize("data", [
    {"type": "groups", "groups": [["Ann", "Bea"], ["Cem", "Dan"]]},
    {"type": "jokers", "jokers": ["fumo", "pony"]},
    {"type": "jokers", "jokers": [], "free_choice": True},
    {"type": "throw", "value": 6},
    {"type": "joker", "joker": "all_in"},
    {"type": "joker", "joker": "sekante", "opponent": "Bea"},
    {"type": "end_fumo"},
    {"type": "stop"},
    {"type": "choose", "option": "reroll"},
    {"type": "steal", "victim": "Cem"},
])
def test_actions_round_trip(data: dict[str, Any]) -> None:
    action = codec.action_from_json(data)
    assert codec.action_to_json(action) == data
    assert codec.action_from_json(codec.action_to_json(action)) == action


@pytest.mark.parametrize("data, words", [
    ({"type": "throw", "value": 7}, "action.value must be an integer from 1 to 6"),
    ({"type": "throw"}, "action.value"),
    ({"type": "joker", "joker": "joker"}, "action.joker must be one of"),
    ({"type": "jokers", "jokers": ["fumo", "fumo"]}, "twice"),
    ({"type": "jokers", "jokers": ["fumo", "pony", "oce", "ratte"]}, "0 to 3"),
    ({"type": "stop", "value": 1}, "unknown field"),
    ({"type": "dance"}, "action.type must be one of"),
    ({"type": "choose", "option": "maybe"}, "action.option"),
    ([], "must be a JSON object"),
])
def test_bad_actions_name_the_field(data: Any, words: str) -> None:
    with pytest.raises(InputError, match=words):
        codec.action_from_json(data)


def test_config_checks_and_seeded_groups() -> None:
    with pytest.raises(InputError, match="unknown field"):
        codec.new_game({**CONFIG, "rounds": 3})
    with pytest.raises(InputError, match="give one of them"):
        codec.new_game({**CONFIG, "group_seed": 1})
    with pytest.raises(RuleError, match="missing Dan"):
        codec.new_game({"players": CONFIG["players"], "groups": [["Ann", "Bea", "Cem"]]})
    seeded = codec.new_game({"players": [f"P{i}" for i in range(8)], "group_seed": "x"})
    assert [len(g) for g in seeded.groups] == [4, 4]
    open_evening = codec.state_to_json(codec.new_game({"players": CONFIG["players"]}))
    assert open_evening["phase"] == "groups" and open_evening["legal"][0]["type"] == "groups"


def test_state_says_what_is_legal_and_why() -> None:
    state = codec.new_game(CONFIG)
    data = codec.state_to_json(state)
    assert data["player"] == "Ann" and data["phase"] == "jokers"
    assert data["legal"][0]["type"] == "jokers" and len(data["legal"][0]["choices"]) == 15
    for action in ({"type": "jokers", "jokers": ["fumo", "jule"]}, {"type": "throw", "value": 4}):
        state = codec.apply(state, codec.action_from_json(action))
    data = codec.state_to_json(state)
    json.dumps(data)
    game = data["round"]
    assert game["total"] == 4 and game["phase"] == "announce"
    assert "Jules Törtchen: +1 per throw" in game["active"]
    kinds = [(m["type"], m.get("joker")) for m in data["legal"]]
    assert ("joker", "fumo") in kinds and ("stop", None) in kinds and ("throw", None) in kinds
    assert all(m["why"] for m in data["legal"])
    assert {"joker": "jule", "why": "Jules Törtchen is an auto-joker: the croupier applies it"} \
        in game["unavailable"]
    state = codec.apply(state, codec.action_from_json({"type": "joker", "joker": "fumo"}))
    assert [m["type"] for m in codec.state_to_json(state)["legal"]] == ["throw"]


def test_action_from_roll_one_die_is_one_throw() -> None:
    state = codec.new_game(CONFIG)
    [die] = read_dice((5, None, None))
    assert action_from_roll(state, [die]) is None  # jokers are named first
    state = codec.apply(state, codec.action_from_json({"type": "jokers", "jokers": ["monokel"]}))
    assert action_from_roll(state, [die]) == r.Throw(5)
    with pytest.raises(InputError, match="one die at a time; the camera saw 2"):
        action_from_roll(state, [die, die])
    state = codec.apply(state, r.Throw(5))
    assert action_from_roll(state, [die]) == r.Throw(5)  # going on
    state = codec.apply(codec.apply(state, r.Announce(r.JokerId.MONOKEL)), r.Throw(2))
    assert action_from_roll(state, [die]) is None  # keep or reroll: a tap


def test_replay_of_a_stored_evening() -> None:
    actions = [{"type": "jokers", "jokers": ["hirte"]}, {"type": "throw", "value": 3},
               {"type": "joker", "joker": "hirte"}, {"type": "throw", "value": 6},
               {"type": "stop"}, {"type": "jokers", "jokers": []}]
    state = replay("v6", CONFIG, actions)
    data = codec.state_to_json(state)
    assert data["results"][0]["total"] == 15 and data["player"] == "Bea"
    assert data["spent_jokers"] == {"Ann": ["hirte"]}


def test_score_prints_each_step_and_the_final_total() -> None:
    result = codec.score(RUNKELRUEB_ROUND)
    assert [s["total"] for s in result["steps"]] == [6, 6, 10, 10, 13, 13, 19, 19, 21, 29, 29,
                                                     29, 24, 24]
    assert result["total"] == 24 and result["outcome"] == "stopped"
    assert result["steps"][-3]["note"].startswith("Runkelrüb: throw 2")


def test_cli_scores_a_round() -> None:
    done = run_cli("score", "v6", stdin=json.dumps(RUNKELRUEB_ROUND))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["total"] == 24


@pytest.mark.parametrize("payload, words", [
    ({"jokers": ["fumo"], "events": [{"type": "stop"}]},
     "input.events[0] (stop): cannot stop now: the free throw comes first"),
    ({"jokers": ["nope"], "events": []}, "input.jokers[0] must be one of"),
    ({"jokers": [], "events": [{"type": "throw", "value": 0}]},
     "input.events[0].value must be an integer from 1 to 6"),
    ({"jokers": [], "events": [{"type": "jokers", "jokers": []}]}, "evening action"),
    ({"jokers": [], "event": []}, "unknown field"),
    ({"jokers": ["hirte"], "events": [{"type": "throw", "value": 2},
                                      {"type": "joker", "joker": "hirte"},
                                      {"type": "joker", "joker": "hirte"}]},
     "one joker per throw"),
])
def test_cli_bad_input_is_one_line_and_status_2(payload: Any, words: str) -> None:
    done = run_cli("score", "v6", stdin=json.dumps(payload))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert words in done.stderr


def test_seating_in_order_deals_the_players_round_the_groups() -> None:
    from dicecam.scorer.v6.groups import groups_in_order

    names = [f"P{i}" for i in range(1, 10)]
    assert groups_in_order(names) == (("P1", "P4", "P7"), ("P2", "P5", "P8"),
                                      ("P3", "P6", "P9"))
    assert groups_in_order(names[:4]) == (tuple(names[:4]),)
    assert [len(g) for g in groups_in_order(names + ["P10"])] == [4, 3, 3]
    state = codec.new_game({"players": names, "seating": "in_order"})
    assert codec.state_to_json(state)["groups"] == [list(g) for g in groups_in_order(names)]
    with pytest.raises(InputError, match="gives groups and seating"):
        codec.new_game({"players": names, "groups": [names], "seating": "in_order"})
    with pytest.raises(InputError, match="config.seating"):
        codec.new_game({"players": names, "seating": "by height"})


def test_an_evening_without_groups_proposes_the_players_as_entered() -> None:
    state = codec.new_game({"players": ["Ann", "Bo", "Cy", "Di", "Ed"]})
    (item,) = codec.state_to_json(state)["legal"]
    assert item["type"] == "groups"
    assert item["groups"] == [["Ann", "Cy", "Ed"], ["Bo", "Di"]]
    state = codec.apply(state, codec.action_from_json({"type": "groups",
                                                       "groups": item["groups"]}))
    assert codec.state_to_json(state)["groups"] == item["groups"]
