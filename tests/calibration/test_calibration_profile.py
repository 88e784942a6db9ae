"""Colour profiles: built-ins, the JSON format's validation, the profile store."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest

from dicecam.calibration.profile import (
    Marks,
    builtin_profile_names,
    load_builtin_profile,
    load_profile,
    new_profile,
    profile_from_json,
    save_profile,
    saved_profile_names,
)
from dicecam.errors import InputError
from dicecam.synth.dicesets import DICE_SETS


def test_every_game_has_a_builtin_profile() -> None:
    assert set(builtin_profile_names()) == {"diceparty", "dicetopia", "charidice", "v6"}


@pytest.mark.parametrize("name", ["diceparty", "dicetopia", "charidice", "v6"])
def test_builtin_profiles_name_the_colours_the_games_use(name: str) -> None:
    profile = load_profile(name)
    assert profile.name == name and not profile.fitted
    assert set(profile.colours) == set(DICE_SETS[name].colour_names)
    assert profile.marks == DICE_SETS[name].marks


def test_rulebook_colours() -> None:
    # dice-party-rules-en.txt "The Guests"; dicetopia-rules-de.md section 1 (Würfel 10 x 3
    # Farben) and the missions; charidice: six numeral colours among them black and grey.
    assert load_profile("diceparty").colours == ("yellow", "orange", "red")
    assert load_profile("dicetopia").colours == ("purple", "white", "turquoise")
    charidice = load_profile("charidice")
    assert len(charidice.colours) == 6 and {"black", "grey"} <= set(charidice.colours)
    assert charidice.marks == Marks.NUMERALS and charidice.anchor is not None


def test_save_then_load_by_name_prefers_the_fitted_profile(home: Path) -> None:
    builtin = load_builtin_profile("diceparty")
    fitted = replace(builtin, fitted_at="2026-11-21T04:00:00+00:00", white_bgr=(0.6, 0.8, 1.0))
    path = save_profile(fitted)
    assert path == home / "profiles" / "diceparty.json"
    assert saved_profile_names() == ("diceparty",)
    again = load_profile("diceparty")
    assert again == fitted and again.fitted
    assert load_builtin_profile("diceparty") == builtin
    assert load_profile(str(path)) == fitted


def test_a_saved_profile_is_readable_json(home: Path) -> None:
    path = save_profile(load_builtin_profile("charidice").with_name("kitchen"))
    data = json.loads(path.read_text("utf-8"))
    assert data["format"] == "dicecam-colour-profile" and data["name"] == "kitchen"
    assert [c["name"] for c in data["colours"]][:2] == ["black", "grey"]


def test_unknown_profile_name_lists_the_known_ones() -> None:
    with pytest.raises(InputError, match="no colour profile named 'dicepraty'.*diceparty"):
        load_profile("dicepraty")


def test_missing_profile_file() -> None:
    with pytest.raises(InputError, match="does not exist"):
        load_profile("/nonexistent/profile.json")


def test_new_profile_for_an_unseen_set() -> None:
    profile = new_profile("pastels", "pips", ["pink", "mint"])
    assert profile.colours == ("pink", "mint") and not profile.fitted
    with pytest.raises(InputError):
        new_profile("pastels", "pips", ["pink", "pink"])
    with pytest.raises(InputError, match="profile name"):
        new_profile("Pastels!", "pips", ["pink"])


def _good() -> dict:
    return load_builtin_profile("diceparty").to_json()


def _set(data: dict, path: tuple, value: object) -> dict:
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


_DELETE = object()

BAD_PROFILES = [
    {"description": "not a profile at all", "path": ("format",), "value": "dicecam-board",
     "expected": "format must be 'dicecam-colour-profile'"},
    {"description": "a newer format version", "path": ("version",), "value": 9,
     "expected": "newer than this dicecam"},
    {"description": "marks neither pips nor numerals", "path": ("marks",), "value": "dots",
     "expected": "marks must be one of pips, numerals"},
    {"description": "a spread of zero", "path": ("colours", 0, "spread"), "value": [0, 1, 1],
     "expected": r"colours\[0\].spread\[0\]"},
    {"description": "Lab lightness above 100", "path": ("colours", 1, "lab"),
     "value": [120, 0, 0], "expected": r"colours\[1\].lab\[0\] \(L\)"},
    {"description": "a colour named twice", "path": ("colours", 2, "name"), "value": "yellow",
     "expected": "'yellow' appears twice"},
    {"description": "no colours", "path": ("colours",), "value": [],
     "expected": "colours must hold 1 to 32 items, got 0"},
    {"description": "a typo in a field name", "path": ("whte_bgr",), "value": None,
     "expected": "unknown field"},
    {"description": "a white with two channels", "path": ("white_bgr",), "value": [1, 1],
     "expected": "white_bgr must hold exactly 3"},
    {"description": "pip dice anchored by their body", "path": ("anchor",),
     "value": {"part": "body", "lab": [90, 0, 0]}, "expected": "anchor.part must be"},
    {"description": "a shading range that does not hold 1", "path": ("shading",),
     "value": [1.2, 1.5], "expected": r"shading\[0\] must be a number from 0.05 to 1.0"},
    {"description": "a name with spaces", "path": ("name",), "value": "my dice",
     "expected": "name must be 1-64 lowercase"},
    {"description": "no name", "path": ("name",), "value": _DELETE,
     "expected": "name must be a string"},
]


@pytest.mark.parametrize("case", BAD_PROFILES, ids=[c["description"] for c in BAD_PROFILES])
def test_bad_profiles_are_refused_naming_the_field(case: dict) -> None:
    with pytest.raises(InputError, match=case["expected"]):
        profile_from_json(_set(_good(), case["path"], case["value"]))


def test_shading_defaults_by_marks_and_round_trips() -> None:
    assert load_profile("diceparty").shading_range == (0.45, 1.35)
    assert load_profile("charidice").shading_range == (0.8, 1.25)
    narrow = replace(load_builtin_profile("diceparty"), shading=(0.9, 1.1))
    assert profile_from_json(narrow.to_json()).shading_range == (0.9, 1.1)


def test_the_good_profile_passes() -> None:
    assert profile_from_json(_good()) == load_builtin_profile("diceparty")


def test_bad_json_text_in_a_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{", "utf-8")
    with pytest.raises(InputError, match="not valid JSON"):
        load_profile(path)
