"""Who may change the score: every tablet may watch, only a paired one may change a game.

Pairing over Socket.IO (the PIN, the token kept by the page, wrong PINs limited), and the
HTTP side: no endpoint takes a path or a file from a browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dicecam.errors import InputError
from dicecam.webapp import events
from dicecam.webapp.api.app import create_app, services, socketio
from dicecam.webapp.api.pairing import (
    MAX_WRONG_IN_ALL,
    MAX_WRONG_PER_ADDRESS,
    MAX_WRONG_PER_CLIENT,
    WINDOW_SECONDS,
    Pairing,
    TooManyTries,
    WrongPin,
    new_pin,
)
from tests.support.tablets import pair, paired_client

CHARIDICE = {"game": "charidice", "config": {"players": ["Ann", "Bo"]}}
SIX = [{"value": v, "colour": c} for v, c in
       zip([1, 2, 3, 4, 5, 6], ["red", "blue", "green", "purple", "black", "grey"], strict=True)]

# a well-formed payload for each event that changes a game (valid once the game below runs),
# so that a refusal can only be the pairing's
VALID = {
    events.NEW_GAME: CHARIDICE,
    events.OPEN_GAME: {"game_id": 1},
    events.CLOSE_GAME: {"game_id": 1},
    events.DELETE_GAME: {"game_id": 1},
    events.ACTION: {"type": "keep", "kept": [0, 1]},
    events.UNDO: {},
    events.CORRECT_DIE: {"roll_id": 1, "index": 0, "value": 2, "colour": "red"},
    events.CONFIRM_ROLL: {"roll_id": 1},
    events.ADD_DIE: {"roll_id": 1, "x": 100, "y": 100, "value": 3, "colour": "red"},
    events.TEACH_LAYOUT: {"roll_id": 1},
    events.ASSIGN_ZONE: {"roll_id": 1, "zone": "tray"},
    events.ENTER_ROLL: {"dice": SIX},
    events.DEMO_ROLL: {},
    events.DEMO_PARTY: {"game": "diceparty", "players": ["Ann", "Bo"]},
    events.SET_ZONES: {"width": 640, "height": 480,
                       "zones": [{"name": "Ann", "rect": [0, 0, 320, 480]}]},
}


def names(client: Any) -> list[str]:
    return [m["name"] for m in client.get_received()]


def test_every_game_changing_event_is_listed_with_a_valid_payload() -> None:
    assert set(VALID) == set(events.CHANGES_THE_GAME)


@pytest.mark.parametrize("event", events.CHANGES_THE_GAME)
def test_an_unpaired_tablet_may_watch_but_not_change_anything(app: Any, event: str) -> None:
    player = paired_client(app)
    player.emit(events.NEW_GAME, CHARIDICE, callback=True)
    player.emit(events.ENTER_ROLL, {"dice": SIX}, callback=True)
    before = services(app).session.view()
    log_before = services(app).store.log(before["game_id"])
    watcher = socketio.test_client(app)
    connected = watcher.get_received()
    assert {"name": events.PAIRING, "args": [{"paired": False}], "namespace": "/"} in connected
    ack = watcher.emit(event, VALID[event], callback=True)
    assert ack["ok"] is False and ack["code"] == "not_paired"
    assert "enter the PIN shown where dicecam serve runs" in ack["error"]
    after = services(app).session.view()
    assert after["state"] == before["state"] and after["version"] == before["version"]
    assert services(app).store.log(before["game_id"]) == log_before
    assert len(services(app).store.list_games()) == 1
    # watching: the unpaired tablet still sees every change the paired one makes
    player.emit(events.ACTION, {"type": "keep", "kept": [0]}, callback=True)
    assert events.STATE in names(watcher)


def test_the_right_pin_pairs_the_tablet_and_gives_a_token(app: Any) -> None:
    client = socketio.test_client(app)
    client.get_received()
    ack = client.emit(events.PAIR, {"pin": "246 810"}, callback=True)
    assert ack["ok"] and isinstance(ack["token"], str) and len(ack["token"]) >= 24
    assert {"name": events.PAIRING, "args": [{"paired": True}],
            "namespace": "/"} in client.get_received()
    assert client.emit(events.NEW_GAME, CHARIDICE, callback=True)["ok"]


def test_the_token_pairs_the_next_connection_and_only_that(app: Any) -> None:
    first = socketio.test_client(app)
    token = pair(first)
    first.disconnect()
    again = socketio.test_client(app, auth={"token": token})
    assert {"name": events.PAIRING, "args": [{"paired": True}],
            "namespace": "/"} in again.get_received()
    assert again.emit(events.NEW_GAME, CHARIDICE, callback=True)["ok"]
    # a connection without the token is not paired by the earlier one's pairing
    assert socketio.test_client(app).emit(events.UNDO, {}, callback=True)["code"] == "not_paired"


@pytest.mark.parametrize("auth", [
    {"token": "made-up"}, {"token": "ü" * 30}, {"token": "x" * 10_000}, {"token": 12345},
    {"token": None}, {"token": ["a"]}, {"pin": "246810"}, {},
])
def test_a_bad_token_leaves_the_tablet_watching(app: Any, auth: dict[str, Any]) -> None:
    client = socketio.test_client(app, auth=auth)
    assert client.is_connected()
    assert {"name": events.PAIRING, "args": [{"paired": False}],
            "namespace": "/"} in client.get_received()
    assert client.emit(events.NEW_GAME, CHARIDICE, callback=True)["code"] == "not_paired"


@pytest.mark.parametrize(("payload", "error"), [
    ({"pin": "000000"}, "that is not the PIN"),
    ({"pin": ""}, "that is not the PIN"),
    ({"pin": 246810}, "pairing.pin must be a string"),
    ({"pin": "2" * 21}, "at most 20 characters"),
    ({"pin": "246810", "admin": True}, "unknown field"),
    ("246810", "must be a JSON object"),
])
def test_a_wrong_or_malformed_pin_is_refused(app: Any, payload: Any, error: str) -> None:
    client = socketio.test_client(app)
    ack = client.emit(events.PAIR, payload, callback=True)
    assert ack["ok"] is False and error in ack["error"]
    assert client.emit(events.UNDO, {}, callback=True)["code"] == "not_paired"


def test_after_five_wrong_pins_even_the_right_one_waits(app: Any) -> None:
    client = socketio.test_client(app)
    for _ in range(MAX_WRONG_PER_CLIENT):
        assert client.emit(events.PAIR, {"pin": "111111"}, callback=True)["code"] == "wrong_pin"
    ack = client.emit(events.PAIR, {"pin": "246810"}, callback=True)
    assert ack["code"] == "too_many_tries" and "wait a minute" in ack["error"]


def test_wrong_pins_are_limited_per_device_and_in_all_for_a_minute() -> None:
    now = [0.0]
    pairing = Pairing("135790", clock=lambda: now[0])
    for _ in range(MAX_WRONG_PER_CLIENT):
        with pytest.raises(WrongPin):
            pairing.pair("c1", "000000", "10.0.0.5")
    with pytest.raises(TooManyTries):
        pairing.pair("c1", "135790", "10.0.0.5")
    assert pairing.pair("c2", "135790", "10.0.0.6")  # another device is not held up
    now[0] += WINDOW_SECONDS + 1
    assert pairing.pair("c1", "135790", "10.0.0.5")
    for i in range(MAX_WRONG_IN_ALL):
        with pytest.raises(WrongPin):
            pairing.pair(f"x{i}", "000000", f"10.0.1.{i}")
    with pytest.raises(TooManyTries):
        pairing.pair("late", "135790", "10.0.2.1")


def test_wrong_pins_hold_up_the_client_that_typed_them_not_its_router() -> None:
    now = [0.0]
    pairing = Pairing("135790", clock=lambda: now[0])
    for _ in range(MAX_WRONG_PER_CLIENT):
        with pytest.raises(WrongPin):
            pairing.pair("phone-sid", "000000", "192.168.1.1", "phone")
    with pytest.raises(TooManyTries):  # the phone waits, on any connection it opens
        pairing.pair("phone-sid-2", "135790", "192.168.1.1", "phone")
    # a second tablet behind the same router pairs at once
    assert pairing.pair("tablet-sid", "135790", "192.168.1.1", "tablet")
    # a page that names no client is held up by its connection: a new connection is a
    # new client, but the address as a whole has a wider limit
    for i in range(MAX_WRONG_PER_ADDRESS - MAX_WRONG_PER_CLIENT):
        with pytest.raises(WrongPin):
            pairing.pair(f"anon-{i}", "000000", "192.168.1.1")
    with pytest.raises(TooManyTries):
        pairing.pair("tablet-sid-2", "135790", "192.168.1.1", "another")
    assert pairing.pair("elsewhere", "135790", "10.0.0.9", "phone")  # other addresses pair
    now[0] += WINDOW_SECONDS + 1
    assert pairing.pair("phone-sid-3", "135790", "192.168.1.1", "phone")


def test_a_pin_names_its_client_as_a_short_string(app: Any) -> None:
    client = socketio.test_client(app)
    for bad, error in ((7, "must be a string"), ("x" * 65, "at most 64 characters")):
        ack = client.emit(events.PAIR, {"pin": "246810", "client": bad}, callback=True)
        assert ack["ok"] is False and error in ack["error"]
    for _ in range(MAX_WRONG_PER_CLIENT):
        client.emit(events.PAIR, {"pin": "111111", "client": "phone"}, callback=True)
    assert client.emit(events.PAIR, {"pin": "246810", "client": "phone"},
                       callback=True)["code"] == "too_many_tries"
    other = socketio.test_client(app)  # same test address, another browser
    assert other.emit(events.PAIR, {"pin": "246810", "client": "tablet"}, callback=True)["ok"]


def test_a_disconnect_ends_that_connections_pairing() -> None:
    pairing = Pairing("135790")
    token = pairing.pair("sid-1", "135790", "10.0.0.5")
    assert pairing.is_paired("sid-1")
    pairing.disconnect("sid-1")
    assert not pairing.is_paired("sid-1")
    assert pairing.connect("sid-2", token) and pairing.is_paired("sid-2")


def test_the_pin_is_six_digits_new_at_each_start_or_the_configured_one(tmp_path: Path) -> None:
    pins = {new_pin() for _ in range(5)}
    assert all(len(p) == 6 and p.isdigit() for p in pins) and len(pins) > 1
    app = create_app({"DB_PATH": str(tmp_path / "g.sqlite")})
    try:
        made = app.config["PAIRING_PIN"]
        assert len(made) == 6 and made.isdigit() and services(app).pairing.pin == made
    finally:
        services(app).close()
    with pytest.raises(InputError, match="a PIN is 6 digits"):
        Pairing("12ab56")


def test_serve_prints_the_pin_in_two_halves() -> None:
    from dicecam.commands.serve import pin_line

    assert pin_line("482913").startswith("Pairing PIN: 482 913 ")


# --- HTTP: nothing but the page, its assets and a health check ----------------------------


def test_the_only_http_endpoints_are_the_page_the_assets_and_health(app: Any) -> None:
    """A new endpoint must be checked for what it takes from a browser: add it here then."""
    rules = {(rule.rule, tuple(sorted(rule.methods - {"HEAD", "OPTIONS"})))
             for rule in app.url_map.iter_rules()}
    assert rules == {("/", ("GET",)), ("/healthz", ("GET",)),
                     ("/static/<path:filename>", ("GET",)),
                     # a game's rules: only a game this server offers, a fixed file name
                     ("/rules/<game>", ("GET",))}


@pytest.mark.parametrize("path", [
    "/static/../app.py", "/static/%2e%2e/app.py", "/static/..%2fapp.py",
    "/static//etc/passwd", "/static/%2fetc%2fpasswd", "/static/../../pyproject.toml",
    "/static/templates/../../store.py",
])
def test_no_file_outside_the_assets_is_served(app: Any, path: str) -> None:
    response = app.test_client().get(path, follow_redirects=True)
    assert response.status_code == 404, path
    assert b"root:" not in response.data and b"import" not in response.data


def test_a_large_or_unexpected_request_body_is_refused(app: Any) -> None:
    http = app.test_client()
    assert http.post("/", data=b"x" * 200_000).status_code in (405, 413)
    assert http.put("/healthz", data=b"{}").status_code == 405
    assert http.get("/healthz").get_json() == {"ok": True, "game": None}
