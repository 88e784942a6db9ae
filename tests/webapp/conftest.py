"""The table's app for the Socket.IO tests: a private games database, a known PIN."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dicecam.webapp.api.app import create_app, services
from tests.support.tablets import PIN


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Any]:
    """``dicecam serve``'s app without a camera, closed after the test."""
    app = create_app({"DB_PATH": str(tmp_path / "games.sqlite"), "PAIRING_PIN": PIN})
    yield app
    services(app).close()
