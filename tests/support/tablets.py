"""Tablets for the Socket.IO tests: a test client that has entered the server's PIN."""

from __future__ import annotations

from typing import Any

from dicecam.webapp import events
from dicecam.webapp.api.app import socketio

#: the PIN of the ``app`` fixture's table (tests/webapp/conftest.py)
PIN = "246810"


def pair(client: Any) -> str:
    """Pair ``client`` with its app's PIN (the config value tests may read); the token."""
    ack = client.emit(events.PAIR, {"pin": client.app.config["PAIRING_PIN"]}, callback=True)
    assert ack["ok"], ack
    return ack["token"]


def paired_client(app: Any) -> Any:
    client = socketio.test_client(app)
    assert client.is_connected()
    pair(client)
    return client
