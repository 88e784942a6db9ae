"""The first check on every event a browser sends, before any handler looks at it.

Each handler checks its own fields; this check refuses what no tablet of ours ever sends and
what could trip code further down instead of being refused there: text that is no valid
Unicode (a lone surrogate cannot be stored as UTF-8), numbers JSON cannot carry back
(NaN, infinities) or a browser cannot hold exactly, binary attachments, nesting and sizes far
beyond any game's payload.
"""

from __future__ import annotations

import math
from typing import Any

from dicecam.errors import InputError

MAX_DEPTH = 12
MAX_ITEMS = 5000
MAX_TEXT = 10_000
#: the largest integer a browser's JavaScript holds exactly (Number.MAX_SAFE_INTEGER)
MAX_SAFE_INTEGER = 2**53 - 1


def check_payload(data: Any, what: str) -> None:
    """Raise InputError naming what is wrong when ``data`` is no plain, modest JSON value."""
    budget = [MAX_ITEMS]
    _check(data, what, 0, budget)


def _check(value: Any, where: str, depth: int, budget: list[int]) -> None:
    budget[0] -= 1
    if budget[0] < 0:
        raise InputError(f"{where}: the event holds more than {MAX_ITEMS} values")
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise InputError(f"{where} is a number too large for a tablet to send exactly")
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InputError(f"{where} must be a finite number, got {value}")
        return
    if isinstance(value, str):
        _check_text(value, where)
        return
    if isinstance(value, bytes | bytearray):
        raise InputError(f"{where}: tablets send JSON, not binary data")
    if depth >= MAX_DEPTH:
        raise InputError(f"{where} is nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, list):
        for i, item in enumerate(value):
            _check(item, f"{where}[{i}]", depth + 1, budget)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, f"{where} key")
            shown = key if key.isidentifier() and len(key) <= 40 else "(a field)"
            _check(item, f"{where}.{shown}", depth + 1, budget)
        return
    raise InputError(f"{where}: unexpected {type(value).__name__}")


def _check_text(text: Any, where: str) -> None:
    if not isinstance(text, str):
        raise InputError(f"{where} must be text")
    if len(text) > MAX_TEXT:
        raise InputError(f"{where} is longer than {MAX_TEXT} characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(f"{where} is not valid Unicode text") from None
