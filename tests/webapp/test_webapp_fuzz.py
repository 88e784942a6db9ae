"""Thousands of random and mutated events from browsers: each gets a reply (an error one for
anything malformed), none crashes a handler or changes a score it should not.

Events are made from a seeded generator (the seed is in every failure message): random JSON
of every kind (NaN, huge integers, deep nesting, bytes, unknown event names, extra
arguments) and one-change mutations of well-formed payloads (a field dropped, added, of the
wrong type, just out of range). An unpaired tablet's events change nothing at all; a paired
tablet's are either refused with nothing changed, or committed with the stored log and the
live state in step. The stored games survive a restart as they were, and the server still
answers. A short HTTP fuzz checks the endpoints the same way.
"""

from __future__ import annotations

import copy
import logging
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dicecam.scorer.registry import replay
from dicecam.webapp import events
from dicecam.webapp.api.app import create_app, services, socketio
from tests.support.tablets import PIN, pair, paired_client
from tests.support.waiting import WAIT_SECONDS

SEED = 20240610
UNPAIRED_EVENTS = 2000
PAIRED_EVENTS = 2000
HTTP_REQUESTS = 300

SIX = [{"value": v, "colour": c} for v, c in
       zip([1, 2, 3, 4, 5, 6], ["red", "blue", "green", "purple", "black", "grey"], strict=True)]
CONFIGS = {
    "charidice": {"players": ["Ann", "Bo"]},
    "diceparty": {"players": ["Ann", "Bo", "Cy"]},
    "dicetopia": {"players": [{"name": "Ann", "faction": "hollows"}, {"name": "Bo"}]},
    "v6": {"players": ["Ann", "Bo"], "groups": [["Ann", "Bo"]]},
}
# "connect" and "disconnect" sent as events reach the connection's handlers: a forged connect
# pairs only with a token already handed out, a forged disconnect only unpairs the sender
NAMES_THAT_ARE_NO_EVENT = ["", "x" * 1000, "__proto__", "constructor", "message", "json",
                           "connect", "disconnect", "STATE", "state", "frame", "new game"]
KNOWN_EVENTS = [*events.CHANGES_THE_GAME, events.SYNC, events.PAIR, events.LIST_GAMES]
NASTY_STRINGS = ["", " ", "\x00", "ü" * 40, "../../../../etc/passwd", "/etc/passwd",
                 "C:\\Windows\\win.ini", "file:///etc/passwd", "'; DROP TABLE log; --",
                 "<script>alert(1)</script>", "NaN", "1e309", "-0", "9" * 400, "\ud800",
                 "a" * 70_000]
NASTY_NUMBERS = [0, -1, 1, 6, 7, 2**31, 2**53 + 1, 2**63, -(2**63), 10**90, 0.5, -0.0,
                 1e308, math.inf, -math.inf, math.nan, True, False]


# --- making events ---------------------------------------------------------------------------


def random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(10 if depth < 4 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice(NASTY_NUMBERS)
    if kind == 2:
        return rng.randint(-10, 130)
    if kind == 3:
        return rng.choice(NASTY_STRINGS)
    if kind == 4:
        return "".join(rng.choice("abcdefgh_01 ") for _ in range(rng.randrange(12)))
    if kind == 5:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
    if kind in (6, 7):
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(5))]
    if kind == 8:
        keys = ["type", "game", "config", "players", "roll_id", "index", "value", "colour",
                "zone", "dice", "game_id", "pin", "kept", "kind", "scored", "count"]
        return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randrange(5))}
    nested: Any = rng.choice([[], {}])
    for _ in range(rng.randrange(50, 400)):  # deep nesting
        nested = [nested] if rng.random() < 0.5 else {"a": nested}
    return nested


def near_miss(rng: random.Random, value: Any) -> Any:
    """A value close to ``value`` that a careless check might let through."""
    if isinstance(value, bool):
        return rng.choice([not value, 1, "true", None])
    if isinstance(value, int):
        return rng.choice([value + 1, value - 1, -value, str(value), float(value), True, None,
                           *NASTY_NUMBERS])
    if isinstance(value, str):
        return rng.choice([value.upper(), value + "\x00", value * 200, "", 7, None, [value],
                           value + "\ud800", *NASTY_STRINGS])
    if isinstance(value, list):
        return rng.choice([[], value * 60, [*value, random_json(rng)], [value], {"0": value},
                           value[::-1]])
    if isinstance(value, dict):
        return rng.choice([{}, [value], {**value, "extra": 1}, str(value)])
    return random_json(rng)


def mutate(rng: random.Random, payload: Any) -> Any:
    """``payload`` with one random change somewhere inside it."""
    out = copy.deepcopy(payload)
    spots: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in list(node):
                spots.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for i in range(len(node)):
                spots.append((node, i))
                walk(node[i])

    walk(out)
    if not spots or rng.random() < 0.1:
        return near_miss(rng, out)
    container, key = rng.choice(spots)
    action = rng.randrange(4)
    if action == 0 and isinstance(container, dict):
        del container[key]
    elif action == 1 and isinstance(container, dict):
        container[rng.choice(["x", "type ", "Type", "__class__", key + "s"])] = random_json(rng)
    elif action == 2:
        container[key] = random_json(rng)
    else:
        container[key] = near_miss(rng, container[key])
    return out


def templates(app: Any) -> dict[str, list[Any]]:
    """Well-formed payloads for the table as it is now (the roll on the table, its games)."""
    session = services(app).session
    view = session.view()
    roll = session.roll_payload() or {"roll_id": 1}
    stored = [g["id"] for g in session.games_payload()["stored"]]
    legal = list((view.get("state") or {}).get("legal", []))
    return {
        events.NEW_GAME: [{"game": g, "config": c} for g, c in CONFIGS.items()],
        events.OPEN_GAME: [{"game_id": i} for i in stored],
        events.CLOSE_GAME: [{"game_id": i} for i in stored],
        events.DELETE_GAME: [{"game_id": i} for i in stored[-1:]],
        events.LIST_GAMES: [{}],
        events.ACTION: [{"type": "keep", "kept": [0, 1]}, {"type": "big_gift"},
                        {"type": "pickpocket", "count": 1}, {"type": "jokers", "jokers": []},
                        {"type": "stop"}, *legal],
        events.UNDO: [{}],
        events.CORRECT_DIE: [{"roll_id": roll["roll_id"], "index": 0, "value": 3,
                              "colour": "red"}],
        events.CONFIRM_ROLL: [{"roll_id": roll["roll_id"]}],
        events.ADD_DIE: [{"roll_id": roll["roll_id"], "x": 100, "y": 80, "value": 2,
                          "colour": "red"}],
        events.TEACH_LAYOUT: [{"roll_id": roll["roll_id"]}],
        events.ASSIGN_ZONE: [{"roll_id": roll["roll_id"], "zone": "the_agency"}],
        events.ENTER_ROLL: [{"dice": SIX}, {"dice": [{"value": 4, "colour": "white"}]}],
        events.DEMO_ROLL: [{}],
        events.DEMO_PARTY: [{"game": "diceparty", "players": ["Ann", "Bo"]}],
        events.SET_ZONES: [{"width": 640, "height": 480, "zones": [
            {"name": "Ann", "rect": [0, 0, 320, 480]}, {"name": "Bo", "rect": [320, 0, 640, 480]}]},
            {"width": 640, "height": 480, "zones": []}],
        events.SYNC: [{}],
        events.PAIR: [{"pin": "000000"}],
    }


def fuzzed_events(rng: random.Random, app: Any, count: int) -> Iterator[tuple[str, list[Any]]]:
    for _ in range(count):
        pick = rng.random()
        if pick < 0.04:
            yield rng.choice(NAMES_THAT_ARE_NO_EVENT), [random_json(rng)]
            continue
        event = rng.choice(KNOWN_EVENTS)
        if pick < 0.35:
            args = [random_json(rng)]
        else:
            args = [mutate(rng, rng.choice(templates(app)[event] or [{}]))]
        if rng.random() < 0.03:
            args = rng.choice([[], [*args, random_json(rng)]])
        yield event, args


# --- the table under test ------------------------------------------------------------------


def snapshot(app: Any) -> dict[str, Any]:
    """Everything a refused event must leave as it was."""
    store = services(app).store
    games = store.list_games(limit=10_000)
    view = services(app).session.view()
    return {"games": games, "logs": {g.id: store.log(g.id) for g in games},
            "state": view.get("state"), "game_id": view["game_id"], "version": view["version"]}


@pytest.fixture
def app_in_play(app: Any) -> Any:
    """The table with a game of each kind, the Charidice one open with a roll kept."""
    player = paired_client(app)
    for game, config in CONFIGS.items():
        assert player.emit(events.NEW_GAME, {"game": game, "config": config}, callback=True)["ok"]
    assert player.emit(events.OPEN_GAME, {"game_id": 1}, callback=True)["ok"]  # charidice
    assert player.emit(events.ENTER_ROLL, {"dice": SIX}, callback=True)["ok"]
    assert player.emit(events.ACTION, {"type": "keep", "kept": [0]}, callback=True)["ok"]
    return app


def send(client: Any, event: str, args: list[Any]) -> Any:
    return client.emit(event, *args, callback=True)


def check_reply(reply: Any, event: str, args: list[Any], where: str) -> None:
    if event in ("connect", "disconnect"):
        return  # forged: the library runs the connection's own handlers (no harm: see above)
    if event not in KNOWN_EVENTS:
        assert reply is None, f"{where}: an unknown event {event!r} was answered: {reply!r}"
        return
    assert isinstance(reply, dict) and isinstance(reply.get("ok"), bool), f"{where}: {reply!r}"
    if not reply["ok"]:
        error = reply.get("error")
        assert isinstance(error, str) and error and "\n" not in error, f"{where}: {reply!r}"
        assert "could not handle that" not in error, (
            f"{where}: {event} {args!r:.300} failed inside the server: {error}")


def test_an_unpaired_tablet_changes_nothing_whatever_it_sends(
        app_in_play: Any, caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(SEED)
    token = pair(socketio.test_client(app_in_play))  # a player's tablet, paired before the storm
    before = snapshot(app_in_play)
    stranger = socketio.test_client(app_in_play)
    for n, (event, args) in enumerate(fuzzed_events(rng, app_in_play, UNPAIRED_EVENTS)):
        where = f"seed {SEED}, event {n}"
        if not stranger.is_connected():  # a forged disconnect event: come back
            stranger = socketio.test_client(app_in_play)
        reply = send(stranger, event, args)
        check_reply(reply, event, args, where)
        if event in events.CHANGES_THE_GAME and reply is not None:
            assert reply["ok"] is False, f"{where}: {event} {args!r:.300} was accepted"
    assert snapshot(app_in_play) == before
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # the stranger's guesses ran into the limit; the player's tablet still plays
    assert send(stranger, events.PAIR, [{"pin": PIN}])["code"] == "too_many_tries"
    player = socketio.test_client(app_in_play, auth={"token": token})
    assert player.emit(events.ACTION, {"type": "keep", "kept": [0, 1]}, callback=True)["ok"]


def test_a_paired_tablet_gets_refusals_that_change_nothing_and_commits_in_step(
        app_in_play: Any, caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    rng = random.Random(SEED + 1)
    token = pair(socketio.test_client(app_in_play))
    player = socketio.test_client(app_in_play, auth={"token": token})
    accepted = 0
    before = snapshot(app_in_play)
    for n, (event, args) in enumerate(fuzzed_events(rng, app_in_play, PAIRED_EVENTS)):
        where = f"seed {SEED + 1}, event {n}"
        reply = send(player, event, args)
        check_reply(reply, event, args, where)
        if event in ("connect", "disconnect"):  # a forged one may unpair: connect anew
            player = socketio.test_client(app_in_play, auth={"token": token})
            continue
        if reply is None or reply["ok"] and event in (events.SYNC, events.PAIR,
                                                      events.LIST_GAMES):
            continue
        after = snapshot(app_in_play)
        if reply["ok"]:
            accepted += 1
            assert_state_matches_the_log(app_in_play, where)
        else:
            assert after == before, f"{where}: refused {event} {args!r:.300} changed the table"
        before = after
    assert accepted > 20, "the mutations should also make some events that are right"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    final = services(app_in_play).session.view()
    db = app_in_play.config["DB_PATH"]
    services(app_in_play).close()
    again = create_app({"DB_PATH": db})
    try:
        resumed = services(again).session.view()
        assert (resumed["game_id"], resumed["state"]) == (final["game_id"], final["state"])
    finally:
        services(again).close()


def assert_state_matches_the_log(app: Any, where: str) -> None:
    session = services(app).session
    view = session.view()
    if view["game_id"] is None:
        return
    record = services(app).store.get_game(view["game_id"])
    actions = [e.action for e in services(app).store.effective_actions(record.id)]
    codec = session._get_game(record.game).codec
    replayed = codec.state_to_json(replay(record.game, record.config, actions))
    assert replayed == view["state"], f"{where}: the live state and the stored log differ"


def test_http_requests_of_any_shape_get_no_server_error(app_in_play: Any) -> None:
    rng = random.Random(SEED + 2)
    before = snapshot(app_in_play)
    http = app_in_play.test_client()
    paths = ["/", "/healthz", "/static/app.js", "/static/../app.py", "/static/%2e%2e/store.py",
             "/socket.io/", "/socket.io/?EIO=4&transport=polling", "/admin", "/games/1",
             "/static/" + "a" * 3000, "/%00", "/static/i18n.js%00.py"]
    for n in range(HTTP_REQUESTS):
        path = rng.choice(paths) + rng.choice(["", "?x=1", "?game_id=1;drop", "#frag",
                                               "?a=%00&b=..%2f"])
        method = rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH", "GET", "GET"])
        body = rng.choice([b"", b"{}", b'{"game_id": 1}', bytes(rng.randrange(256)
                                                              for _ in range(500)),
                           b"x" * 100_000])
        headers = {"Accept-Language": rng.choice(["de", "", "*", "x" * 5000, "de;q=nan",
                                                  "en;q=2,,;;de"]),
                   "Content-Type": rng.choice(["application/json", "text/plain",
                                               "multipart/form-data; boundary=x"])}
        response = http.open(path, method=method, data=body, headers=headers)
        assert response.status_code < 500, (f"seed {SEED + 2}, request {n}: {method} "
                                            f"{path} -> {response.status_code}")
    assert snapshot(app_in_play) == before


# Packets no Socket.IO client would send, on the wire of the real server: the library's
# decoder refuses them (with a traceback in the server's log), and the server goes on.
RAW_PACKETS = ['42["action",' + "1" * 200 + "]", '42["action",' + "[" * 30000 + "]" * 30000 + "]",
               '42["action",{"type":', "42", "4", '42["undo"', "0garbage", "42/nsp,[\"x\"]",
               '43["a"]', "41", "x" * 70_000, '451-["action",{"_placeholder":true,"num":0}]',
               '42[{"a":1}]', "42[1,2]", "42[]", "42[null]", '42["pair",{"pin":"\\ud800"}]']


@pytest.mark.slow
def test_malformed_packets_on_the_wire_leave_the_real_server_running(tmp_path: Path) -> None:
    import websocket

    from dicecam.tools.child_server import start_child_server
    from dicecam.tools.tablet_client import Tablet

    server = start_child_server(tmp_path / "games.sqlite")
    try:
        url = server.url.replace("http://", "ws://") + "socket.io/?EIO=4&transport=websocket"
        for raw in RAW_PACKETS:
            wire = websocket.create_connection(url, timeout=WAIT_SECONDS)
            wire.recv()  # the Engine.IO open packet
            wire.send("40")  # connect to the default namespace
            wire.recv()
            try:
                wire.send(raw)
                wire.settimeout(0.3)
                wire.recv()  # an answer, the server closing, or silence
            except (websocket.WebSocketException, OSError):
                pass
            wire.close(timeout=0.2)
        assert server.process.poll() is None
        tablet = Tablet(server.url).connect()
        tablet.pair(server.pin)
        assert tablet.call(events.NEW_GAME, {"game": "v6", "config": CONFIGS["v6"]})["ok"]
    finally:
        server.kill()
