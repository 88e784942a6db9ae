"""Shared fixtures: every test runs with a private data folder."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``DICECAM_HOME`` in the test's temp folder: saved profiles, zone maps and the games
    database never touch the user's own, and start empty."""
    monkeypatch.setenv("DICECAM_HOME", str(tmp_path / "home"))
    return tmp_path / "home"
