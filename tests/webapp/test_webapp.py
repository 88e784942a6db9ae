"""The web app over Socket.IO (Flask-SocketIO's test client): games, rolls, taps, undo,
restarts, and the refusal of malformed events. The live reader runs on a file-backed frame
source with injected readings (see tests/test_webapp_live.py)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from dicecam.reading import DieReading, SettledRoll
from dicecam.scorer.registry import game_names
from dicecam.webapp import events
from dicecam.webapp.api.app import create_app, services, socketio
from dicecam.webapp.journal.sqlite import EntryKind, GameStore, NewEntry, Source
from tests.support.tablets import paired_client

CHARIDICE = {"game": "charidice", "config": {"players": ["Ann", "Bo"]}}
SIX = [{"value": v, "colour": c} for v, c in
       zip([1, 2, 3, 4, 5, 6], ["red", "blue", "green", "purple", "black", "grey"], strict=True)]


@pytest.fixture
def client(app: Any) -> Any:
    return paired_client(app)


def received(client: Any, name: str) -> list[dict[str, Any]]:
    return [m["args"][0] for m in client.get_received() if m["name"] == name]


def last_state(client: Any) -> dict[str, Any]:
    states = received(client, events.STATE)
    assert states, "no state event was sent"
    return states[-1]


def ok(client: Any, event: str, payload: Any) -> dict[str, Any]:
    ack = client.emit(event, payload, callback=True)
    assert ack["ok"], ack
    return ack


def settled(dice: list[tuple[int | None, str | None, float]], roll_id: int = 1,
            zone: str | None = None) -> SettledRoll:
    readings = tuple(
        DieReading(x=60.0 + 70 * i, y=80.0, w=50.0, h=50.0, value=value, colour=colour,
                   confidence=confidence, zone=zone)
        for i, (value, colour, confidence) in enumerate(dice)
    )
    return SettledRoll(roll_id=roll_id, width=640, height=480, dice=readings)


# --- connecting ------------------------------------------------------------------------------


def test_a_new_tablet_gets_the_games_and_the_state(app: Any) -> None:
    messages = socketio.test_client(app).get_received()
    names = [m["name"] for m in messages]
    assert events.GAMES in names and events.STATE in names
    games = next(m["args"][0] for m in messages if m["name"] == events.GAMES)
    assert {g["game"] for g in games["available"]} == set(game_names())
    assert games["stored"] == []


def test_every_tablet_sees_every_change(app: Any) -> None:
    first, second = paired_client(app), socketio.test_client(app)
    first.get_received(), second.get_received()
    ok(first, events.NEW_GAME, CHARIDICE)
    assert last_state(second)["game"] == "charidice"


# --- a game by taps ----------------------------------------------------------------------


def test_charidice_throw_choose_and_undo(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    start = last_state(client)
    assert [item["type"] for item in start["state"]["legal"]] == ["throw", "big_gift"]
    ack = ok(client, events.ENTER_ROLL, {"dice": SIX})
    assert ack["status"] == "applied"
    after_throw = last_state(client)
    assert after_throw["state"]["turn"]["throws"] == 1
    best = after_throw["state"]["options"][0]
    ok(client, events.ACTION, {"type": "choose", "kind": best["kind"], "scored": best["scored"]})
    chosen = last_state(client)
    assert chosen["state"]["players"][0]["rows"][0][0] == best["points"]
    assert chosen["can_undo"]
    ok(client, events.UNDO, {})
    assert last_state(client)["state"] == after_throw["state"]
    ok(client, events.UNDO, {})  # the throw too: back at the start
    assert last_state(client)["state"] == start["state"]
    back = client.emit(events.UNDO, {}, callback=True)
    assert not back["ok"] and "nothing to undo" in back["error"]
    # the table's own refusals are worded in the tablet's language too (issue 59, item 4)
    from dicecam.messages import render
    assert back["message"] == {"msg": "app.nothing_to_undo", "params": {}}
    assert render("app.nothing_to_undo", {}, "de").startswith("es gibt nichts zurückzunehmen")


def test_two_tablets_scoring_at_once_the_later_is_told_the_game_moved_on(app: Any) -> None:
    """Issue 59, item 4: both tap Score on the same throw; the later tap is refused for the
    true reason (the turn moved on), in the tablet's language, and nothing is scored twice."""
    first, second = paired_client(app), paired_client(app)
    ok(first, events.NEW_GAME, CHARIDICE)
    ok(first, events.ENTER_ROLL, {"dice": SIX})
    shown = last_state(second)
    best = shown["state"]["options"][0]
    choose = {"type": "choose", "kind": best["kind"], "scored": best["scored"],
              "seen_version": shown["version"]}
    ok(first, events.ACTION, choose)
    late = second.emit(events.ACTION, choose, callback=True)
    assert late["ok"] is False and late["message"]["msg"] == "core.moved_on"
    assert "another tablet changed the game" in late["error"]
    after = last_state(second)
    assert after["state"]["players"][0]["rows"][0][0] == best["points"]
    assert len([e for e in services(app).session.store.log(after["game_id"])
                if e.kind is EntryKind.ACTION]) == 2  # the throw and one choice
    # a tap on the state as it is now is judged by the rules, as ever
    now = after["version"]
    again = second.emit(events.ACTION, {**choose, "seen_version": now}, callback=True)
    assert again["ok"] is False and again["message"]["msg"] == "cd.choose_before_throw"
    bad = second.emit(events.ACTION, {**choose, "seen_version": "x"}, callback=True)
    assert bad["ok"] is False and "seen_version must be an integer" in bad["error"]


def test_an_illegal_action_is_refused_and_changes_nothing(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    before = last_state(client)
    ack = client.emit(events.ACTION, {"type": "choose", "kind": "same_colour", "scored": [0]},
                      callback=True)
    assert not ack["ok"] and ack["error"]
    assert received(client, events.STATE) == []
    state = services(client.app).session.view()
    assert state["state"] == before["state"] and state["version"] == before["version"]


# Malformed events from a browser: each gets an error reply naming what was wrong, and the
# stored game is unchanged. (issue 10 fuzzes this; these are the shapes we know of.)
BAD_EVENTS = [
    {"description": "new game of an unknown game", "event": events.NEW_GAME,
     "payload": {"game": "chess", "config": {}}, "error": "new game.game must be one of"},
    {"description": "new game with a config the rules refuse", "event": events.NEW_GAME,
     "payload": {"game": "charidice", "config": {"players": ["Solo"]}}, "error": "players"},
    {"description": "new game with an unknown field", "event": events.NEW_GAME,
     "payload": {"game": "charidice", "config": {"players": ["A", "B"]}, "x": 1},
     "error": "unknown field"},
    {"description": "an action that is not an object", "event": events.ACTION,
     "payload": "choose", "error": "must be a JSON object"},
    {"description": "an action of an unknown type", "event": events.ACTION,
     "payload": {"type": "cheat"}, "error": "action.type must be one of"},
    {"description": "open a game that does not exist", "event": events.OPEN_GAME,
     "payload": {"game_id": 999}, "error": "there is no game 999"},
    {"description": "open a game by a string id", "event": events.OPEN_GAME,
     "payload": {"game_id": "1; drop table games"}, "error": "must be an integer"},
    {"description": "entered dice with a pip value of 7", "event": events.ENTER_ROLL,
     "payload": {"dice": [{"value": 7, "colour": "red"}]}, "error": "from 1 to 6"},
    {"description": "entered dice that are not a list", "event": events.ENTER_ROLL,
     "payload": {"dice": "123456"}, "error": "must be a JSON list"},
    {"description": "too many entered dice", "event": events.ENTER_ROLL,
     "payload": {"dice": [{"value": 1}] * 500}, "error": "must hold 1 to 120 items"},
    {"description": "a correction of a roll that is not on the table", "event": events.CORRECT_DIE,
     "payload": {"roll_id": 42, "index": 0, "value": 3, "colour": "red"},
     "error": "no longer on the table"},
    {"description": "a correction with a boolean value", "event": events.CORRECT_DIE,
     "payload": {"roll_id": 1, "index": 0, "value": True, "colour": "red"},
     "error": "must be an integer"},
    {"description": "a colour name that is far too long", "event": events.CORRECT_DIE,
     "payload": {"roll_id": 1, "index": 0, "value": 3, "colour": "r" * 5000},
     "error": "at most 30 characters"},
    {"description": "undo with a payload", "event": events.UNDO,
     "payload": {"steps": 5}, "error": "unknown field"},
    # what JSON from a browser can hold but no game payload should (webapp/payload.py)
    {"description": "a player's name that is no valid Unicode", "event": events.NEW_GAME,
     "payload": {"game": "charidice", "config": {"players": ["Ann\ud800", "Bo"]}},
     "error": "new_game.config.players[0] is not valid Unicode text"},
    {"description": "a count that is not a number (NaN)", "event": events.ACTION,
     "payload": {"type": "pickpocket", "count": float("nan")},
     "error": "action.count must be a finite number"},
    {"description": "an infinite die index", "event": events.CORRECT_DIE,
     "payload": {"roll_id": 1, "index": float("inf"), "value": 3, "colour": "red"},
     "error": "must be a finite number"},
    {"description": "a game id beyond what a browser holds", "event": events.OPEN_GAME,
     "payload": {"game_id": 2**70}, "error": "too large for a tablet to send exactly"},
    {"description": "binary data instead of JSON", "event": events.ENTER_ROLL,
     "payload": {"dice": b"\x01\x02"}, "error": "not binary data"},
    {"description": "nesting far deeper than any game's payload", "event": events.ACTION,
     "payload": {"type": [[[[[[[[[[[[[["deep"]]]]]]]]]]]]]]}, "error": "nested more than"},
]


@pytest.mark.parametrize("case", BAD_EVENTS, ids=[c["description"] for c in BAD_EVENTS])
def test_malformed_events_get_an_error_reply(client: Any, case: dict[str, Any]) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    ok(client, events.ENTER_ROLL, {"dice": SIX})
    store = services(client.app).store
    game_id = services(client.app).session.view()["game_id"]
    log_before = store.log(game_id)
    games_before = store.list_games()
    ack = client.emit(case["event"], copy.deepcopy(case["payload"]), callback=True)
    assert ack["ok"] is False
    assert case["error"] in ack["error"]
    assert "\n" not in ack["error"]
    assert store.log(game_id) == log_before
    assert store.list_games() == games_before


def test_two_arguments_instead_of_one_payload_are_refused(client: Any) -> None:
    ack = client.emit(events.ACTION, {"type": "throw"}, {"extra": 1}, callback=True)
    assert ack == {"ok": False, "error": "send one JSON object per event"}


# --- settled rolls, corrections --------------------------------------------------------------


def test_a_sure_roll_is_scored_at_once(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    client.get_received()
    session = services(client.app).session
    roll = session.settle(settled([(d["value"], d["colour"], 0.99) for d in SIX]))
    assert roll.status.value == "applied"
    log = services(client.app).store.log(session.view()["game_id"])
    assert [(e.kind, e.source) for e in log] == [(EntryKind.ACTION, Source.CAMERA)]
    assert log[0].dice is not None and len(log[0].dice) == 6
    names = [m["name"] for m in client.get_received()]
    assert names == [events.ROLL, events.STATE]


def test_an_unsure_die_waits_for_a_tap_and_the_tap_is_what_scores(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    session = services(client.app).session
    dice = [(d["value"], d["colour"], 0.99) for d in SIX]
    dice[4] = (3, "grey", 0.55)  # black 5 read as a grey 3, unsure
    roll = session.settle(settled(dice, roll_id=7))
    assert roll.status.value == "pending"
    assert [d.needs_check for d in roll.dice] == [False] * 4 + [True, False]
    assert services(client.app).store.log(session.view()["game_id"]) == []
    client.get_received()
    ok(client, events.CORRECT_DIE, {"roll_id": 7, "index": 4, "value": 5, "colour": "black"})
    state = last_state(client)
    assert state["roll"]["status"] == "applied"
    assert {"colour": "black", "value": 5} in state["state"]["turn"]["dice"]
    log = services(client.app).store.log(state["game_id"])
    assert [e.source for e in log] == [Source.CORRECTION]


def test_a_tap_on_a_scored_roll_replaces_its_action(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    session = services(client.app).session
    session.settle(settled([(d["value"], d["colour"], 0.99) for d in SIX], roll_id=3))
    ok(client, events.CORRECT_DIE, {"roll_id": 3, "index": 0, "value": 6, "colour": "red"})
    state = last_state(client)
    assert state["state"]["turn"]["dice"][0] == {"colour": "red", "value": 6}
    assert state["actions"] == 1
    log = services(client.app).store.log(state["game_id"])
    assert [(e.kind, e.source) for e in log] == [
        (EntryKind.ACTION, Source.CAMERA), (EntryKind.UNDO, Source.CORRECTION),
        (EntryKind.ACTION, Source.CORRECTION)]


def test_confirming_an_unsure_roll_scores_it_as_read(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    session = services(client.app).session
    session.settle(settled([(d["value"], d["colour"], 0.7) for d in SIX], roll_id=4))
    ok(client, events.CONFIRM_ROLL, {"roll_id": 4})
    assert last_state(client)["state"]["turn"]["throws"] == 1


def test_an_unreadable_die_must_be_tapped_before_confirming(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    session = services(client.app).session
    dice: list[tuple[int | None, str | None, float]] = [
        (d["value"], d["colour"], 0.99) for d in SIX]
    dice[2] = (None, "green", 0.2)
    session.settle(settled(dice, roll_id=5))
    ack = client.emit(events.CONFIRM_ROLL, {"roll_id": 5}, callback=True)
    assert not ack["ok"] and "marked ?" in ack["error"]


def test_a_die_tapped_as_not_a_die_is_dropped(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    session = services(client.app).session
    dice = [(d["value"], d["colour"], 0.99) for d in SIX] + [(2, "red", 0.4)]  # a token
    roll = session.settle(settled(dice, roll_id=6))
    assert roll.status.value == "pending"
    ok(client, events.CORRECT_DIE, {"roll_id": 6, "index": 6, "value": None, "colour": None})
    assert last_state(client)["roll"]["status"] == "applied"


def test_a_roll_the_rules_refuse_waits_with_the_reason(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    roll = services(client.app).session.settle(settled([(3, "red", 0.99)] * 4, roll_id=8))
    assert roll.status.value == "pending"
    assert roll.error is not None and "all 6 dice" in roll.error


def test_a_roll_while_the_game_waits_for_no_dice_is_only_shown(client: Any) -> None:
    ok(client, events.NEW_GAME, {"game": "v6", "config": {"players": ["Ann", "Bo"],
                                                          "groups": [["Ann", "Bo"]]}})
    roll = services(client.app).session.settle(settled([(4, "white", 0.99)]))
    assert roll.status.value == "shown"  # V6 waits for the jokers to be named first
    assert last_state(client)["actions"] == 0


# --- restarts --------------------------------------------------------------------------------


def test_a_restart_resumes_every_game_where_it_was(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite")
    app = create_app({"DB_PATH": db})
    client = paired_client(app)
    ok(client, events.NEW_GAME, {"game": "diceparty", "config": {"players": ["Ann", "Bo"]}})
    ok(client, events.NEW_GAME, CHARIDICE)
    ok(client, events.ENTER_ROLL, {"dice": SIX})
    ok(client, events.ACTION, {"type": "keep", "kept": [0, 1]})
    ok(client, events.UNDO, {})
    before = services(app).session.view()
    client.disconnect()
    services(app).close()

    again = create_app({"DB_PATH": db})
    try:
        client = paired_client(again)
        state = last_state(client)
        assert state["game_id"] == before["game_id"]
        assert state["state"] == before["state"]
        assert state["actions"] == 1
        games = received_games(client, again)
        assert [g["game"] for g in games["stored"]] == ["charidice", "diceparty"]
        ok(client, events.OPEN_GAME, {"game_id": games["stored"][1]["id"]})
        assert last_state(client)["game"] == "diceparty"
    finally:
        services(again).close()


def received_games(client: Any, app: Any) -> dict[str, Any]:
    ok(client, events.SYNC, {})
    return received(client, events.GAMES)[-1]


def test_the_store_keeps_the_log_and_folds_undos(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite")
    game_id = store.create_game("charidice", {"players": ["A", "B"]})
    store.append(game_id, [NewEntry(EntryKind.ACTION, Source.TAP, {"n": 1})])
    store.append(game_id, [NewEntry(EntryKind.ACTION, Source.TAP, {"n": 2})])
    store.append(game_id, [NewEntry(EntryKind.UNDO, Source.TAP),
                           NewEntry(EntryKind.ACTION, Source.CORRECTION, {"n": 3})])
    store.append(game_id, [NewEntry(EntryKind.UNDO, Source.TAP)])
    assert [e.action for e in store.effective_actions(game_id)] == [{"n": 1}]
    assert len(store.log(game_id)) == 5
    store.close()
    reopened = GameStore(tmp_path / "games.sqlite")
    assert [e.seq for e in reopened.log(game_id)] == [1, 2, 3, 4, 5]
    reopened.close()


def test_a_failed_append_writes_nothing(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite")
    game_id = store.create_game("v6", {"players": ["A", "B"]})
    with pytest.raises(TypeError):
        store.append(game_id, [NewEntry(EntryKind.ACTION, Source.TAP, {"ok": 1}),
                               NewEntry(EntryKind.ACTION, Source.TAP, {"bad": object()})])
    assert store.log(game_id) == []
    store.close()


def test_a_database_in_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    from dicecam.errors import InputError

    with pytest.raises(InputError, match="does not exist"):
        GameStore(tmp_path / "nope" / "games.sqlite")


# --- one short flow per game over Socket.IO (the browser tests play them fully) ------------


def test_dice_party_preparty_and_a_turn(client: Any) -> None:
    ok(client, events.NEW_GAME, {"game": "diceparty", "config": {"players": ["Ann", "Bo"]}})
    party = {"Ann": [6, 6, 5, 4], "Bo": [1, 1, 1, 2]}
    colours = ["yellow", "yellow", "orange", "orange"]
    dice = [{"value": v, "colour": c, "zone": name} for name, values in party.items()
            for v, c in zip(values, colours, strict=True)]
    ok(client, events.ENTER_ROLL, {"dice": dice})
    assert last_state(client)["state"]["active"] == "Ann"
    ok(client, events.ENTER_ROLL, {"dice": [d for d in dice if d["zone"] == "Ann"]})
    state = last_state(client)["state"]
    assert state["legal"] == [{"type": "pickpocket", "min": 0, "max": 2, "options": []}]
    ok(client, events.ACTION, {"type": "pickpocket", "count": 2})
    assert last_state(client)["state"]["players"][0]["wallets"] == 2


def test_dicetopia_zones_agents_and_missions(client: Any) -> None:
    ok(client, events.NEW_GAME, {"game": "dicetopia", "config": {"players": [
        {"name": "Ann", "faction": "hollows"}, {"name": "Bo"}]}})
    ok(client, events.ACTION, {"type": "set_agents", "district": "the_agency",
                               "agents": {"Ann": 1, "Bo": 1}})
    ok(client, events.ENTER_ROLL, {"dice": [
        {"value": 5, "colour": "purple", "zone": "the_agency"},
        {"value": 3, "colour": "white", "zone": "board:Ann"}]})
    state = last_state(client)["state"]
    assert state["table"]["zones"]["the_agency"] == [{"colour": "purple", "value": 5}]
    assert state["districts"][0]["agents"] == {"Ann": 1, "Bo": 1}
    missions = next(i for i in state["legal"] if i["type"] == "set_missions"
                    and i["player"] == "Bo")["options"][:2]
    ok(client, events.ACTION, {"type": "set_missions", "player": "Bo", "missions": missions})
    assert last_state(client)["state"]["table"]["players"][1]["missions"] == missions


def test_v6_jokers_throws_and_stop(client: Any) -> None:
    ok(client, events.NEW_GAME, {"game": "v6", "config": {"players": ["Ann", "Bo"],
                                                          "groups": [["Ann", "Bo"]]}})
    ok(client, events.ACTION, {"type": "jokers", "jokers": []})
    session = services(client.app).session
    assert session.settle(settled([(3, "white", 0.99)], roll_id=1)).status.value == "applied"
    assert session.settle(settled([(4, "white", 0.99)], roll_id=2)).status.value == "applied"
    assert last_state(client)["state"]["round"]["total"] == 7
    ok(client, events.ACTION, {"type": "stop"})
    state = last_state(client)["state"]
    assert state["player"] == "Bo"
    assert state["standing"][0] == {"name": "Ann", "total": 7, "zombie": False}


def test_state_payloads_are_plain_json(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    ok(client, events.ENTER_ROLL, {"dice": SIX})
    state = last_state(client)
    assert json.loads(json.dumps(state)) == state


# --- a table without a zone map: one tap says where the dice lie ----------------------------


def test_dice_outside_every_zone_can_be_placed_in_a_district(client: Any) -> None:
    ok(client, events.NEW_GAME, {"game": "dicetopia", "config": {"players": [
        {"name": "Ann"}, {"name": "Bo"}]}})
    session = services(client.app).session
    roll = session.settle(settled([(5, "purple", 0.99), (2, "white", 0.99)], roll_id=2))
    assert roll.status.value == "shown"  # no zone: Dicetopia cannot tell where they lie
    ok(client, events.ASSIGN_ZONE, {"roll_id": 2, "zone": "the_agency"})
    state = last_state(client)
    assert state["roll"]["status"] == "applied"
    assert state["state"]["table"]["zones"]["the_agency"] == [
        {"colour": "purple", "value": 5}, {"colour": "white", "value": 2}]
    again = client.emit(events.ASSIGN_ZONE, {"roll_id": 2, "zone": "the_agency"},
                        callback=True)
    assert not again["ok"] and "already lies in a zone" in again["error"]


def _dice_party_after_preparty(client: Any) -> None:
    ok(client, events.NEW_GAME, {"game": "diceparty", "config": {"players": ["Ann", "Bo"]}})
    dice = [{"value": v, "colour": c, "zone": name}
            for name, values in {"Ann": [6, 6, 5, 4], "Bo": [1, 1, 1, 2]}.items()
            for v, c in zip(values, ["yellow", "yellow", "orange", "orange"], strict=True)]
    ok(client, events.ENTER_ROLL, {"dice": dice})


def test_a_throw_outside_every_zone_can_be_given_to_the_active_party(client: Any) -> None:
    _dice_party_after_preparty(client)
    session = services(client.app).session
    # the table has zones (the counter die lies in one), but the throw landed outside them
    roll = session.settle(SettledRoll(roll_id=9, width=640, height=480, dice=(
        *settled([(6, "yellow", 0.99), (6, "yellow", 0.99), (5, "orange", 0.99),
                  (4, "orange", 0.99)]).dice,
        DieReading(x=600.0, y=400.0, w=50.0, h=50.0, value=3, colour="red", confidence=0.99,
                   zone="counter"))))
    assert roll.status.value == "pending" and roll.error
    ok(client, events.ASSIGN_ZONE, {"roll_id": 9, "zone": "Ann"})
    assert last_state(client)["state"]["phase"] == "pickpocket"


def test_without_a_zone_map_the_settled_dice_are_the_throwers(client: Any) -> None:
    _dice_party_after_preparty(client)
    session = services(client.app).session
    roll = session.settle(settled([(6, "yellow", 0.99), (6, "yellow", 0.99),
                                   (5, "orange", 0.99), (4, "orange", 0.99)], roll_id=9))
    assert roll.status.value == "applied"
    assert last_state(client)["state"]["phase"] == "pickpocket"


def test_a_scored_party_says_whose_it_is_and_carries_its_verdict_on_the_dice(
        client: Any) -> None:
    _dice_party_after_preparty(client)
    roll = services(client.app).session.settle(
        settled([(6, "yellow", 0.99), (6, "yellow", 0.99), (5, "orange", 0.99),
                 (4, "orange", 0.99)], roll_id=9))
    sent = received(client, events.ROLL)[-1]
    assert roll.status.value == "applied" and not sent["typed"]
    assert sent["summary"]["msg"] == "dp.roll.scored"
    assert sent["summary"]["params"]["whose"]["params"]["players"] == ["Ann"]
    assert [d["role"] for d in sent["marks"]["dice"]] == ["spare"] * 4
    assert [d["wallet"] for d in sent["marks"]["dice"]] == [True, True, False, False]
    # a die corrected on the scored roll: its verdict on the dice follows
    ok(client, events.CORRECT_DIE, {"roll_id": 9, "index": 0, "value": 3, "colour": "yellow"})
    sent = received(client, events.ROLL)[-1]
    assert sent["summary"]["msg"] == "dp.roll.scored"
    assert [d["wallet"] for d in sent["marks"]["dice"]] == [False, True, False, False]


def test_after_undo_the_waiting_roll_is_judged_on_the_step_shown(client: Any) -> None:
    _dice_party_after_preparty(client)  # Ann starts
    session = services(client.app).session
    ok(client, events.ENTER_ROLL, {"dice": [{"value": v, "colour": c} for v, c in
                                            [(5, "yellow"), (1, "yellow"), (2, "orange"),
                                             (2, "orange")]]})
    got = client.get_received()
    # dice typed in are marked so: the page never draws them over the camera picture
    assert [m["args"][0] for m in got if m["name"] == events.ROLL][-1]["typed"] is True
    # nothing to steal or provoke (taken by themselves); 6 Party People points: a VIP or not
    assert [m["args"][0] for m in got if m["name"] == events.STATE][-1]["state"][
        "phase"] == "grow"
    ok(client, events.ACTION, {"type": "grow", "option": "vip"})
    # Bo's throw, but five dice: refused, naming Bo
    roll = session.settle(settled([(3, "yellow", 0.99)] * 2 + [(3, "orange", 0.99)] * 3,
                                  roll_id=20))
    assert roll.error and "Bo" in roll.error
    ok(client, events.UNDO, {})  # back to Ann's growth: no throw is due
    got = client.get_received()
    sent = [m["args"][0] for m in got if m["name"] == events.ROLL][-1]
    assert sent["error"] is None and sent["error_message"] is None
    assert sent["summary"]["msg"] == "dp.roll.ignored"
    state = [m["args"][0] for m in got if m["name"] == events.STATE][-1]
    assert state["roll"]["summary"]["msg"] == "dp.roll.ignored"


# --- the games list: who played, the score, when; ending and deleting a game ---------------


def stored(client: Any) -> list[dict[str, Any]]:
    return ok(client, events.LIST_GAMES, {})["games"]["stored"]


def test_the_games_list_shows_players_scores_and_when(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    ok(client, events.ENTER_ROLL, {"dice": SIX})
    best = last_state(client)["state"]["options"][0]
    ok(client, events.ACTION, {"type": "choose", "kind": best["kind"], "scored": best["scored"]})
    (game,) = stored(client)
    assert game["players"] == ["Ann", "Bo"] and game["closed"] is None
    assert game["created"] <= game["updated"]
    scores = {s["player"]: s["score"] for s in game["standing"]["scores"]}
    assert scores["Ann"] == last_state(client)["state"]["players"][0]["total"] > 0
    assert scores["Bo"] == 0 and game["standing"]["over"] is False
    # an undo changes the score in the list too
    ok(client, events.UNDO, {})
    (game,) = stored(client)
    assert {s["player"]: s["score"] for s in game["standing"]["scores"]}["Ann"] == 0


def test_ending_a_game_keeps_it_and_stops_playing_it(app: Any, client: Any) -> None:
    game_id = ok(client, events.NEW_GAME, CHARIDICE)["game_id"]
    ok(client, events.CLOSE_GAME, {"game_id": game_id})
    assert last_state(client)["game"] is None  # every tablet: no game is played now
    (game,) = stored(client)
    assert game["id"] == game_id and game["closed"] is not None
    # it stays ended after a restart, and is not resumed as the active game
    services(app).close()
    again = create_app(app.config)
    try:
        assert services(again).session.game_name is None
        assert services(again).store.get_game(game_id).closed is not None
    finally:
        services(again).close()


def test_opening_an_ended_game_goes_on_with_it(client: Any) -> None:
    game_id = ok(client, events.NEW_GAME, CHARIDICE)["game_id"]
    ok(client, events.CLOSE_GAME, {"game_id": game_id})
    ok(client, events.OPEN_GAME, {"game_id": game_id})
    assert last_state(client)["game_id"] == game_id
    assert stored(client)[0]["closed"] is None


def test_deleting_a_game_removes_it_and_its_log(app: Any, client: Any) -> None:
    first = ok(client, events.NEW_GAME, CHARIDICE)["game_id"]
    ok(client, events.ENTER_ROLL, {"dice": SIX})
    second = ok(client, events.NEW_GAME, CHARIDICE)["game_id"]
    ok(client, events.DELETE_GAME, {"game_id": first})
    assert [g["id"] for g in stored(client)] == [second]
    assert services(app).store.log(first) == []
    assert last_state(client)["game_id"] == second  # another game's deletion leaves this one
    ok(client, events.DELETE_GAME, {"game_id": second})
    assert last_state(client)["game"] is None and stored(client) == []
    ack = client.emit(events.DELETE_GAME, {"game_id": second}, callback=True)
    assert not ack["ok"] and "there is no game" in ack["error"]


def test_a_database_from_before_the_games_list_gets_its_new_columns(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT "
                     "NOT NULL, config TEXT NOT NULL, created REAL NOT NULL, updated REAL "
                     "NOT NULL); INSERT INTO games (game, config, created, updated) VALUES "
                     "('charidice', '{\"players\": [\"A\", \"B\"]}', 1, 2);")
    db.commit()
    db.close()
    store = GameStore(path)
    try:
        (game,) = store.list_games()
        assert game.closed is None and game.standing is None
        store.close_game(game.id)
        assert store.get_game(game.id).closed is not None
    finally:
        store.close()


# --- help: the rules page behind the help's link -------------------------------------------


def test_the_rules_page_speaks_the_players_language(app: Any) -> None:
    http = app.test_client()
    german = http.get("/rules/v6?lang=de").get_data(as_text=True)
    assert "Zombie" in german and "+1 Auge auf jeden Wurf nach dem Freiwurf" in german
    english_page = http.get("/rules/v6?lang=en").get_data(as_text=True)
    assert "+1 pip on every throw after the free throw" in english_page
    assert "Auge" not in english_page
    missions = http.get("/rules/dicetopia?lang=en").get_data(as_text=True)
    assert "Armoury" in missions and "Waffenkammer" not in missions
    assert http.get("/rules/dicetopia?lang=de").get_data(as_text=True).count("Waffenkammer")
    # no language asked: the browser's preference
    assert "Die Runde" in http.get("/rules/v6", headers={"Accept-Language": "de"}).get_data(
        as_text=True)
    assert http.get("/rules/nonsense").status_code == 404
    assert http.get("/rules/..%2Fgames.sqlite").status_code == 404


def test_a_page_that_is_not_there_says_so_in_the_players_language(app: Any) -> None:
    """Issue 59, item 4: no bare English Flask page; the way back to the table."""
    http = app.test_client()
    german = http.get("/nonsense", headers={"Accept-Language": "de"})
    assert german.status_code == 404
    page = german.get_data(as_text=True)
    assert "Diese Seite gibt es nicht" in page and 'href="/"' in page
    assert "Not Found" not in page
    english = http.get("/rules/nonsense?lang=en").get_data(as_text=True)
    assert "There is no such page" in english and "Back to the table" in english
    assert http.post("/").status_code == 405


def test_the_rules_page_shows_the_owners_copy_of_the_rulebook(app: Any) -> None:
    from dicecam.webapp.api.rules_page import help_json, rulebooks_folder

    http = app.test_client()
    page = http.get("/rules/diceparty?lang=en").get_data(as_text=True)
    # no server folder or file name a tablet's user cannot act on
    assert "does not come with dicecam" in page and "as dicecam scores them" in page
    assert "dice-party-rules-en.txt" not in page and str(rulebooks_folder()) not in page
    # the help links the page only where it holds more than the help
    linked = {name: entry["rules_page"] for name, entry in help_json().items()}
    assert linked == {"diceparty": False, "charidice": False, "dicetopia": True, "v6": True}
    rulebooks_folder().mkdir(parents=True)
    (rulebooks_folder() / "dice-party-rules-en.txt").write_text(
        "The night is still young <and> the Party starts.", encoding="utf-8")
    page = http.get("/rules/diceparty?lang=en").get_data(as_text=True)
    assert "The night is still young &lt;and&gt; the Party starts." in page
    # German asked, only the English copy there: that one rather than none
    assert "The night is still young" in http.get("/rules/diceparty?lang=de").get_data(
        as_text=True)
    assert help_json()["diceparty"]["rules_page"] is True  # now there is more to read


def test_every_game_has_help_in_both_languages() -> None:
    from dicecam.scorer.registry import GAMES

    for name, game in GAMES.items():
        assert game.help is not None, name
        assert set(game.help.sections) == {"en", "de"} and set(game.help.rulebook) == {"en", "de"}
        assert len(game.help.sections["en"]) == len(game.help.sections["de"]), name
        assert set(game.help.rulebook_files) == {"en", "de"}


# --- the engines' sentences reach the tablet as messages it words itself -------------------


def test_a_refused_roll_and_its_reply_carry_the_message_to_word(client: Any) -> None:
    from dicecam.messages import render

    ok(client, events.NEW_GAME, CHARIDICE)
    client.get_received()
    ack = client.emit(events.ENTER_ROLL, {"dice": SIX[:5]}, callback=True)
    assert not ack["ok"]
    # dice typed in are the player's word: the reason speaks of the typing, not the camera
    assert ack["message"] == {"msg": "core.typed_count", "params": {"n": 6, "typed": 5}}
    assert ack["error"] == render("core.typed_count", ack["message"]["params"], "en")
    assert render("core.typed_count", ack["message"]["params"], "de").startswith(
        "Dieser Wurf braucht 6 Würfel, eingegeben sind 5")
    roll = received(client, events.ROLL)[-1]
    assert roll["status"] == "pending" and roll["error_message"] == ack["message"]


def test_the_page_gets_every_message_template_in_both_languages(app: Any) -> None:
    import re

    page = app.test_client().get("/").get_data(as_text=True)
    templates = json.loads(re.search(r"window\.DICECAM_MESSAGES = (\{.*?\});\n", page).group(1))
    for prefix in ("dp.", "cd.", "dt.", "v6."):  # every game's catalogue is loaded
        assert any(key.startswith(prefix) for key in templates), prefix
    assert all(set(words) == {"en", "de"} for words in templates.values())


def test_the_same_dice_entry_sent_twice_is_scored_once(client: Any) -> None:
    ok(client, events.NEW_GAME, CHARIDICE)
    entry = {"dice": SIX, "entry_id": "pad-1"}
    first = ok(client, events.ENTER_ROLL, entry)
    again = ok(client, events.ENTER_ROLL, entry)  # a double tap on "Score these dice"
    assert again == first
    assert last_state(client)["state"]["turn"]["throws"] == 1
    ok(client, events.ENTER_ROLL, {"dice": SIX, "entry_id": "pad-2"})  # a new entry counts
    assert last_state(client)["state"]["turn"]["throws"] == 2


def test_a_database_from_before_the_games_list_reads_read_only(tmp_path: Path) -> None:
    """`dicecam doctor` opens the database read-only: an older one has no new columns."""
    import sqlite3

    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT "
                     "NOT NULL, config TEXT NOT NULL, created REAL NOT NULL, updated REAL "
                     "NOT NULL); INSERT INTO games (game, config, created, updated) VALUES "
                     "('v6', '{\"players\": [\"A\", \"B\"]}', 1, 2);")
    db.commit()
    db.close()
    store = GameStore(path, read_only=True)
    try:
        (game,) = store.list_games()
        assert game.game == "v6" and game.closed is None and game.standing is None
    finally:
        store.close()


# --- zones drawn on a tablet: one area per player ------------------------------------------


def test_zones_drawn_on_a_tablet_count_each_party_in_its_own_area(client: Any) -> None:
    _dice_party_after_preparty(client)  # Ann throws; Bo's party lies on the table too
    session = services(client.app).session
    ann = settled([(6, "yellow", 0.99), (6, "yellow", 0.99), (5, "orange", 0.99),
                   (4, "orange", 0.99)]).dice  # x 60..270
    bo = tuple(DieReading(x=450.0 + 40 * i, y=300.0, w=30.0, h=30.0, value=1,
                          colour=("yellow", "orange")[i % 2], confidence=0.99)
               for i in range(4))
    roll = session.settle(SettledRoll(roll_id=9, width=640, height=480, dice=ann + bo))
    assert roll.status.value == "pending"  # eight dice for a party of four
    assert roll.error_message is not None and roll.error_message.id == "dp.party_mismatch"
    assert roll.summary is not None and roll.summary.id == "dp.roll.refused"
    ok(client, events.SET_ZONES, {"width": 640, "height": 480, "zones": [
        {"name": "Ann", "rect": [0, 0, 320, 480]},
        {"name": "Bo", "rect": [660, 480, 320, -5]}]})  # dragged up and left, past the edge
    got = client.get_received()
    state = [m["args"][0] for m in got if m["name"] == events.STATE][-1]
    assert state["state"]["phase"] == "pickpocket"  # the waiting roll, scored in its area
    assert state["zones"]["zones"][1] == {"name": "Bo", "polygon": [
        [320.0, 0.0], [640.0, 0.0], [640.0, 480.0], [320.0, 480.0]]}
    rolled = [m["args"][0] for m in got if m["name"] == events.ROLL][-1]
    assert rolled["summary"]["params"]["seen"]["msg"] == "dp.seen_in_zones"
    assert [d["zone"] for d in rolled["dice"]] == ["Ann"] * 4 + ["Bo"] * 4
    # the map is the table's for this game: a restart of the session finds it again
    assert services(client.app).store.get_setting(f"zones:game:{state['game_id']}") == (
        f"game-{state['game_id']}")


def test_zones_can_be_removed_and_a_bad_drawing_is_refused(client: Any) -> None:
    _dice_party_after_preparty(client)
    ack = client.emit(events.SET_ZONES, {"width": 640, "height": 480, "zones": [
        {"name": "Ann", "rect": [10, 10, 10, 300]}]}, callback=True)
    assert not ack["ok"] and "empty" in ack["error"]
    ack = client.emit(events.SET_ZONES, {"width": 640, "height": 480, "zones": [
        {"name": "Ann", "rect": [0, 0, 100, 100]}, {"name": "Ann", "rect": [0, 0, 9, 9]}]},
        callback=True)
    assert not ack["ok"] and "twice" in ack["error"]
    ok(client, events.SET_ZONES, {"width": 640, "height": 480, "zones": [
        {"name": "Ann", "rect": [0, 0, 100, 100]}]})
    ok(client, events.SET_ZONES, {"width": 640, "height": 480, "zones": []})
    assert last_state(client)["zones"] is None


def test_the_counter_die_seen_with_the_throw_is_left_out_with_one_tap(client: Any) -> None:
    _dice_party_after_preparty(client)  # Ann throws: P6 P6 V5 V4
    ok(client, events.ENTER_ROLL, {"dice": [{"value": v, "colour": c} for v, c in
                                            [(6, "yellow"), (6, "yellow"), (1, "orange"),
                                             (1, "orange")]]})
    # the counter die shows 2; V1 V1 left: nobody to provoke, no growth, taken by themselves
    ok(client, events.ACTION, {"type": "pickpocket", "count": 2})
    session = services(client.app).session
    # Bo: P1 P1 V1 V1, a throw with no choice to make: Ann's turn again
    ok(client, events.ACTION, {"type": "throw", "dice": [{"kind": "party_people", "pips": 1}] * 2
                                                       + [{"kind": "vip", "pips": 1}] * 2})
    # Ann's party is two VIPs now; the camera sees them and the counter die lying aside
    dice = (DieReading(x=100.0, y=100.0, w=40.0, h=40.0, value=3, colour="orange",
                       confidence=0.99),
            DieReading(x=150.0, y=100.0, w=40.0, h=40.0, value=5, colour="orange",
                       confidence=0.99),
            DieReading(x=600.0, y=420.0, w=40.0, h=40.0, value=2, colour="yellow",
                       confidence=0.99))
    roll = session.settle(SettledRoll(roll_id=30, width=640, height=480, dice=dice))
    assert roll.status.value == "pending" and roll.error  # one Party People too many
    sent = received(client, events.ROLL)[-1]
    assert [a["index"] for a in sent["aside"]] == [2]
    assert sent["aside"][0]["text"]["msg"] == "dp.aside.counter_die"
    ok(client, events.CORRECT_DIE, {"roll_id": 30, "index": 2, "value": None, "colour": None})
    # scored: no Party People to steal from (taken by itself), the VIP at 5 may be provoked
    assert last_state(client)["state"]["phase"] == "provoke"


def test_the_zones_drawn_for_a_game_are_there_after_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite")
    app = create_app({"DB_PATH": db})
    client = paired_client(app)
    ok(client, events.NEW_GAME, {"game": "diceparty", "config": {"players": ["Ann", "Bo"]}})
    ok(client, events.SET_ZONES, {"width": 640, "height": 480, "zones": [
        {"name": "Ann", "rect": [0, 0, 320, 480]}, {"name": "Bo", "rect": [320, 0, 640, 480]}]})
    ok(client, events.NEW_GAME, {"game": "diceparty", "config": {"players": ["Cy", "Di"]}})
    assert last_state(client)["zones"] is None  # another game, other players: no areas yet
    client.disconnect()
    services(app).close()

    again = create_app({"DB_PATH": db})
    try:
        client = paired_client(again)
        ok(client, events.OPEN_GAME, {"game_id": 1})
        zones = last_state(client)["zones"]
        assert [z["name"] for z in zones["zones"]] == ["Ann", "Bo"]
        roll = services(again).session.settle(SettledRoll(roll_id=1, width=640, height=480, dice=(
            DieReading(x=500.0, y=100.0, w=40.0, h=40.0, value=3, colour="yellow",
                       confidence=0.99),)))
        assert roll.dice[0].zone == "Bo"
    finally:
        services(again).close()
