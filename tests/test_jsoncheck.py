from __future__ import annotations

import pytest

from dicecam.errors import InputError
from dicecam.jsoncheck import (
    parse_json,
    reject_unknown_keys,
    require_choice,
    require_int,
    require_list,
    require_object,
)


def test_int_range_error_names_the_place_and_the_value() -> None:
    with pytest.raises(InputError, match=r"party\[3\]\.pips must be an integer from 1 to 6, got 7"):
        require_int(7, "party[3].pips", 1, 6)


def test_booleans_are_not_integers() -> None:
    with pytest.raises(InputError, match="got true"):
        require_int(True, "n")


def test_list_length_is_checked() -> None:
    assert require_list([1, 2], "dice", min_len=2, max_len=2) == [1, 2]
    with pytest.raises(InputError, match="exactly 6 items, got 5"):
        require_list([1] * 5, "dice", min_len=6, max_len=6)


def test_object_choice_and_unknown_keys() -> None:
    with pytest.raises(InputError, match="must be a JSON object, got a list"):
        require_object([], "input")
    with pytest.raises(InputError, match="must be one of a, b"):
        require_choice("c", "kind", ["a", "b"])
    with pytest.raises(InputError, match="unknown field"):
        reject_unknown_keys({"stok": 1}, "input", ["stock"])


def test_parse_json_reports_position() -> None:
    with pytest.raises(InputError, match="not valid JSON"):
        parse_json("{", "stdin")
    assert parse_json('{"a": 1}') == {"a": 1}
