"""Dicetopia over JSON: `dicecam score dicetopia`, `dicecam missions dicetopia`, and the web
app's codec (session actions, camera rolls, round trips, replay)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from dicecam.errors import InputError, RuleError
from dicecam.messages import english, render
from dicecam.scorer.dicetopia import codec as codec
from dicecam.scorer.dicetopia.adapter import action_from_roll
from dicecam.scorer.registry import get_game, replay
from tests.support.dicetopia import RULEBOOK_EXAMPLE
from tests.support.readings import read_dice

_COLOURS = {"p": "purple", "w": "white", "t": "turquoise"}
NAMES = ["red", "blue", "green", "yellow"]


def dice_json(text: str) -> list[dict[str, Any]]:
    return [{"colour": _COLOURS[w[0]], "value": int(w[1:])} for w in text.split()]


def example_payload() -> dict[str, Any]:
    """The section 6 example in the `dicecam score dicetopia` format."""
    spec = RULEBOOK_EXAMPLE["input"]
    return {
        "players": [
            {"name": NAMES[p], "faction": spec["factions"][p], "board": dice_json(board),
             "missions": spec["missions"][p]}
            for p, board in enumerate(spec["boards"])
        ],
        "districts": [
            {"name": name, "agents": dict(zip(NAMES, counts, strict=True)),
             "dice": dice_json(spec["map"].get(name, ""))}
            for name, counts in spec["agents"].items()
        ],
    }


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dicecam", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_score_command_scores_the_rulebook_example() -> None:
    result = run_cli("score", "dicetopia", stdin=json.dumps(example_payload()))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    red = out["players"][0]
    assert (red["name"], red["loot"], red["control"], red["missions"], red["total"],
            red["rank"]) == ("red", 24, 22, 22, 68, 1)
    assert [m["stars"] for m in red["details"]["missions"]] == [8, 14]
    assert red["details"]["missions"][0]["name"] == "Bürgerwehr"
    assert out["winner"] == "red" and out["winners"] == ["red"]
    assert out["complete"] is True
    assert [p["total"] for p in out["players"]] == [68, 31, 43, 53]


def _bad(mutate: Any) -> dict[str, Any]:
    payload = example_payload()
    mutate(payload)
    return payload


BAD_INPUTS = [
    ("unknown mission id", lambda p: p["players"][0].__setitem__("missions", ["schach"]),
     "not a Dicetopia mission id"),
    ("unknown district", lambda p: p["districts"][0].__setitem__("name", "downtown"),
     "districts[0].name must be one of"),
    ("a district listed twice", lambda p: p["districts"][1].__setitem__("name", "the_agency"),
     "listed twice"),
    ("five districts", lambda p: p["districts"].pop(), "exactly 6 items"),
    ("a die out of range", lambda p: p["players"][0]["board"][0].__setitem__("value", 7),
     "players[0].board[0].value must be an integer from 1 to 6, got 7"),
    ("an unknown colour", lambda p: p["players"][0]["board"][0].__setitem__("colour", "red"),
     "players[0].board[0].colour must be one of purple, white, turquoise"),
    ("more than 30 dice", lambda p: [d["dice"].append({"colour": c, "value": 1})
                                     for d in p["districts"] for c in ("purple", "white")],
     "42 dice are in play, but a 4-player game uses 30"),
    ("an eleventh purple die", lambda p: p["players"][0]["board"][2].__setitem__(
        "colour", "purple"), "11 purple dice are in play, but a 4-player game uses 10"),
    ("an agent of nobody", lambda p: p["districts"][0]["agents"].__setitem__("pink", 1),
     "not a player"),
    ("a RISIKO without its draw", lambda p: p["players"][1].__setitem__(
        "missions", ["risiko"]), "give risk_draw"),
    ("one player", lambda p: p.__setitem__("players", p["players"][:1]), "2 to 4 items"),
    ("a typo in a field", lambda p: p["players"][0].__setitem__("mision", []),
     "unknown field(s) mision"),
]


@pytest.mark.parametrize("what,mutate,message", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_is_one_line_and_status_2(what: str, mutate: Any, message: str) -> None:
    with pytest.raises(InputError) as exc:
        codec.score(_bad(mutate))
    assert message in str(exc.value)


@pytest.mark.parametrize("stdin", [
    "not json",
    json.dumps(_bad(lambda p: p["players"][0].__setitem__("missions", ["schach"]))),
    json.dumps(_bad(lambda p: p["players"][0]["board"][0].__setitem__("value", 0))),
])
def test_cli_rejects_bad_input_in_one_line(stdin: str) -> None:
    result = run_cli("score", "dicetopia", stdin=stdin)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_missions_command_lists_every_card() -> None:
    result = run_cli("missions", "dicetopia")
    assert result.returncode == 0
    assert "strassennynte  Straßenmünze" in result.stdout
    assert "4 ★ für jeden lilafarbenen Würfel auf dem Stadtplan" in result.stdout
    rows = json.loads(run_cli("missions", "dicetopia", "--json").stdout)
    assert len(rows) == 40 and len({r["id"] for r in rows}) == 40
    assert rows[0] == {
        "id": "waffenkammer", "title": "WAFFENKAMMER", "name": "Waffenkammer",
        "rule": "12 ★ für die meisten lilafarbenen Würfel",
        "reading": "12 for the most purple dice on a faction board (ties split, rounded up)",
        "kind": "plain"}


# --- the web app's session ------------------------------------------------------------------


def example_actions() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    payload = example_payload()
    config = {"players": [{k: v for k, v in p.items() if k != "board"}
                          for p in payload["players"]]}
    zones = {f"board:{p['name']}": p["board"] for p in payload["players"]}
    zones |= {d["name"]: d["dice"] for d in payload["districts"]}
    actions: list[dict[str, Any]] = [{"type": "set_dice", "zones": zones}]
    actions += [{"type": "set_agents", "district": d["name"],
                 "agents": {k: v for k, v in d["agents"].items() if v}}
                for d in payload["districts"]]
    return config, actions


def test_a_session_replays_to_the_rulebook_example() -> None:
    config, actions = example_actions()
    state = replay("dicetopia", config, actions)
    data = codec.state_to_json(state)
    assert data["winner"] == "red"
    assert data["players"][0]["total"] == 68
    assert data["complete"] is True
    assert data["table"]["agents"]["observatory_bank"] == {"red": 1, "yellow": 3}
    types = {item["type"] for item in data["legal"]}
    assert types == {"set_dice", "set_agents", "set_missions"}
    json.dumps(data)  # plain JSON all the way down


def test_new_session_is_empty_and_says_what_is_missing() -> None:
    state = codec.new_game({"players": [{"name": "ann"}, {"name": "bo",
                                                          "faction": "centauri_bureau"}]})
    data = codec.state_to_json(state)
    assert data["complete"] is False
    assert "bo holds 0 of 3 missions" in english(data["waiting_for"])
    assert "ann has 0 of 6 agents in the districts" in english(data["waiting_for"])
    # the tablet words the same message in German from its id and parameters
    assert data["waiting_for"][-1] == {"msg": "dt.wait_missions",
                                       "params": {"player": "bo", "n": 0, "of": 3}}
    assert render("dt.wait_missions", data["waiting_for"][-1]["params"], "de") == (
        "bo hat 0 von 3 Missionen")
    assert data["table"]["zones"]["board:ann"] == []


def test_choices_for_risiko_and_trittbrett_are_offered_and_applied() -> None:
    state = codec.new_game({"players": [
        {"name": "ann", "missions": ["risiko", "trittbrettgaenger"]},
        {"name": "bo", "missions": ["schmuggler", "pazifist"]}]})
    legal = {item["type"]: item for item in codec.state_to_json(state)["legal"]
             if "player" not in item or item["player"] == "ann"}
    assert "schmuggler" not in legal["set_risk_draw"]["options"]
    assert {"player": "bo", "mission": "pazifist"} in legal["set_copy"]["options"]
    for action in (
        {"type": "set_dice", "zones": {"board:ann": dice_json("w1 w2")}},
        {"type": "set_risk_draw", "player": "ann", "mission": "weniger_ist_mehr"},
        {"type": "set_copy", "player": "ann", "target": {"player": "bo", "mission": "pazifist"}},
    ):
        state = codec.apply(state, codec.action_from_json(action))
    missions = codec.state_to_json(state)["players"][0]["details"]["missions"]
    assert [(m["id"], m["stars"]) for m in missions] == [("risiko", 16),
                                                         ("trittbrettgaenger", 9)]
    assert "copies bo's Pacifist (chosen)" in english(missions[1]["note"])


def test_giving_up_a_copied_card_drops_the_copy_back_to_the_best_pick() -> None:
    """bo may change his missions (the tablet offers any free card) even when ann's
    TRITTBRETTGÄNGER copied one of them: the copy goes back to the engine's best pick."""
    state = codec.new_game({"players": [
        {"name": "ann", "missions": ["trittbrettgaenger"]},
        {"name": "bo", "missions": ["pazifist", "klone"]}]})
    for action in (
        {"type": "set_copy", "player": "ann", "target": {"player": "bo", "mission": "klone"}},
        {"type": "set_missions", "player": "bo", "missions": ["pazifist", "replik"]},
    ):
        state = codec.apply(state, codec.action_from_json(action))
    table = codec.state_to_json(state)["table"]["players"]
    assert table[0]["copy"] is None
    assert table[1]["missions"] == ["pazifist", "replik"]
    note = codec.state_to_json(state)["players"][0]["details"]["missions"][0]["note"]
    assert "copies bo's Pacifist (best pick)" in english(note)
    # a copy of a card still held stays as chosen
    state = codec.apply(state, codec.action_from_json(
        {"type": "set_copy", "player": "ann", "target": {"player": "bo", "mission": "replik"}}))
    state = codec.apply(state, codec.action_from_json(
        {"type": "set_missions", "player": "bo", "missions": ["replik", "klone"]}))
    assert codec.state_to_json(state)["table"]["players"][0]["copy"] == {
        "player": "bo", "mission": "replik"}


def test_illegal_actions_raise_rule_error_and_leave_the_state() -> None:
    config, actions = example_actions()
    state = replay("dicetopia", config, actions)
    eleventh = {"type": "set_dice", "zones": {"board:red": dice_json("p5 p5 p4 w4 t1 t5")}}
    with pytest.raises(RuleError, match="11 purple dice are in play"):
        codec.apply(state, codec.action_from_json(eleventh))
    taken = {"type": "set_missions", "player": "blue", "missions": ["replik"]}
    with pytest.raises(RuleError, match="held by both"):
        codec.apply(state, codec.action_from_json(taken))
    assert codec.state_to_json(state)["players"][0]["total"] == 68


ROUND_TRIPS = [
    {"type": "set_dice", "zones": {"the_agency": dice_json("p1 w6"), "board:ann": []}},
    {"type": "set_agents", "district": "nethal_syndicate", "agents": {"ann": 2, "bo": 1}},
    {"type": "set_missions", "player": "ann", "missions": ["replik", "klone"]},
    {"type": "set_risk_draw", "player": "ann", "mission": None},
    {"type": "set_risk_draw", "player": "ann", "mission": "klone"},
    {"type": "set_copy", "player": "bo", "target": None},
    {"type": "set_copy", "player": "bo", "target": {"player": "ann", "mission": "replik"}},
]


@pytest.mark.parametrize("data", ROUND_TRIPS, ids=lambda d: d["type"])
def test_actions_round_trip(data: dict[str, Any]) -> None:
    action = codec.action_from_json(data)
    assert codec.action_to_json(action) == data
    assert codec.action_from_json(codec.action_to_json(action)) == action


@pytest.mark.parametrize("data,message", [
    ({"type": "fly"}, "action.type must be one of"),
    ({"type": "set_dice", "zones": {"the_agency": [{"colour": "purple", "value": 9}]}},
     "must be an integer from 1 to 6"),
    ({"type": "set_agents", "district": "moon", "agents": {}}, "action.district"),
    ({"type": "set_agents", "district": "the_agency", "agents": {"ann": -1}}, "from 0 to 7"),
    ({"type": "set_missions", "player": "ann", "missions": ["x"]}, "not a Dicetopia mission"),
])
def test_malformed_actions_name_the_field(data: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError, match=message):
        codec.action_from_json(data)


def test_a_camera_roll_sets_the_zones_it_shows() -> None:
    state = codec.new_game({"players": [{"name": "ann"}, {"name": "bo"}]})
    roll = read_dice(
        (6, "purple", "the_agency"),
        (2, "white", "board:ann"),
        (3, "turquoise", "board:ann"),
        (5, "white", None),  # beside the map: ignored
        (4, "white", "dice tray"),  # not a Dicetopia zone
    )
    action = action_from_roll(state, roll)
    assert codec.action_to_json(action) == {"type": "set_dice", "zones": {
        "board:ann": dice_json("w2 t3"), "the_agency": dice_json("p6")}}
    state = codec.apply(state, action)
    assert codec.state_to_json(state)["players"][0]["loot"] == 5
    # a later roll of only the board keeps the district's dice
    state = codec.apply(state, action_from_roll(
        state, read_dice((1, "white", "board:ann"))))
    assert codec.state_to_json(state)["table"]["zones"]["the_agency"] == dice_json("p6")


def test_a_roll_without_dicetopia_zones_is_no_action() -> None:
    state = codec.new_game({"players": [{"name": "ann"}, {"name": "bo"}]})
    assert action_from_roll(state, []) is None
    assert action_from_roll(state, read_dice((3, "white", None))) is None


def test_an_unread_die_must_be_corrected_first() -> None:
    state = codec.new_game({"players": [{"name": "ann"}, {"name": "bo"}]})
    with pytest.raises(InputError, match="could not be read"):
        action_from_roll(state, read_dice((None, "white", "board:bo")))


def test_the_codec_is_registered() -> None:
    assert get_game("dicetopia").codec is codec
    assert codec.TITLE == "Dicetopia"
