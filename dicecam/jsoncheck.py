"""Small checks for JSON payloads from the command line and from browsers.

Each check names where in the payload the bad value sits (``where``), so an error reads
like ``party[3].pips must be an integer from 1 to 6, got 7``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from dicecam.errors import InputError


def parse_json(text: str, what: str = "input") -> Any:
    """Parse JSON text, turning a syntax error into a one-line InputError."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{what} is not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except RecursionError:
        raise InputError(f"{what} is nested too deeply to be a dicecam payload") from None
    except ValueError as exc:
        # e.g. an integer literal of thousands of digits (Python's int-conversion limit)
        raise InputError(f"{what} is not usable JSON ({exc})") from None


def require_object(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(f"{where} must be a JSON object, got {_kind(value)}")
    return value


def require_list(value: Any, where: str, *, min_len: int = 0, max_len: int | None = None) -> list:
    if not isinstance(value, list):
        raise InputError(f"{where} must be a JSON list, got {_kind(value)}")
    if len(value) < min_len or (max_len is not None and len(value) > max_len):
        span = f"at least {min_len}" if max_len is None else f"{min_len} to {max_len}"
        if max_len == min_len:
            span = f"exactly {min_len}"
        raise InputError(f"{where} must hold {span} items, got {len(value)}")
    return value


def require_int(value: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    # bool is a subclass of int in Python, but true/false is never a count or a pip value.
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{where} must be an integer{_range_text(lo, hi)}, got {_show(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise InputError(f"{where} must be an integer{_range_text(lo, hi)}, got {value}")
    return value


def require_number(
    value: Any, where: str, lo: float | None = None, hi: float | None = None
) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{where} must be a number{_range_text(lo, hi)}, got {_show(value)}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise InputError(f"{where} must be a number{_range_text(lo, hi)}, got {value}")
    return float(value)


def require_str(value: Any, where: str, *, max_len: int = 200) -> str:
    if not isinstance(value, str):
        raise InputError(f"{where} must be a string, got {_show(value)}")
    if len(value) > max_len:
        raise InputError(f"{where} must be at most {max_len} characters, got {len(value)}")
    return value


def require_bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{where} must be true or false, got {_show(value)}")
    return value


def require_choice(value: Any, where: str, choices: Iterable[str]) -> str:
    options = list(choices)
    if not isinstance(value, str) or value not in options:
        raise InputError(f"{where} must be one of {', '.join(options)}; got {_show(value)}")
    return value


def reject_unknown_keys(obj: Mapping[str, Any], where: str, allowed: Iterable[str]) -> None:
    """Refuse keys we do not know, so a typo ("stok") is not silently ignored."""
    extra = sorted(set(obj) - set(allowed))
    if extra:
        raise InputError(f"{where} has unknown field(s) {', '.join(extra)}")


def _range_text(lo: float | None, hi: float | None) -> str:
    if lo is not None and hi is not None:
        return f" from {lo} to {hi}"
    if lo is not None:
        return f" of at least {lo}"
    if hi is not None:
        return f" of at most {hi}"
    return ""


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), type(value).__name__)


def _show(value: Any) -> str:
    text = json.dumps(value) if _jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True
