"""Charidice end of game: sheets -> totals, charity bonus, winners (charidice-sheet).

Rulebook: /work/shared/seeds/charidice-rules-de.md, "Ende des Spiels". Marko's example
gives only his column sums (126 + 75 + 22, most given, charity 20 -> 243); the rows and the
other two sheets are made up to match them, with every gift written on both sheets
(seating Lena -> Marko -> Florian -> Lena) and Marko's gifts at most 60 in all.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dicecam.errors import InputError
from dicecam.scorer.charidice.sheet import SheetRow, charity_bonuses, tally
from dicecam.scorer.charidice.sheet_codec import score
from dicecam.scorer.registry import get_game

MARKO_GAME = {
    "Lena": [[15, 15, 2, 13], [12, 0, 5, 0], [18, 0, 12, 4], [20, 25, 0, 0], [10, 0, 8, 5],
             [14, 0, 10, 0], [16, 15, 6, 0]],
    "Marko": [[16, 15, 13, 24], [20, 0, 0, 6], [15, 30, 4, 0], [18, 0, 0, 10], [22, 15, 5, 4],
              [17, 0, 0, 8], [18, 15, 0, 3]],
    "Florian": [[18, 0, 24, 2], [22, 15, 6, 5], [9, 0, 0, 12], [14, 0, 10, 0], [20, 0, 4, 8],
                [11, 40, 8, 10], [13, 0, 3, 6]],
}


def _filler(first: list[int]) -> list[list[int]]:
    return [first] + [[1, 0, 0, 0]] * 6


CASES = get_game("charidice").worked_examples("sheet")


@pytest.mark.parametrize("case", CASES, ids=[c["description"] for c in CASES])
def test_sheet_examples(case: dict) -> None:
    assert score(case["input"]) == case["expected"]


def test_charity_bonus_goes_to_everyone_tied_for_most() -> None:
    assert charity_bonuses([10, 55, 55, 3]) == (0, 20, 20, 0)
    assert charity_bonuses([61, 61]) == (30, 30)
    assert charity_bonuses([0, 0]) == (20, 20)  # literal reading, see module docstring


def test_tally_keeps_the_sheet_order() -> None:
    rows = {"Zoe": [SheetRow(5, 0, 0, 1)], "Al": [SheetRow(5, 0, 1, 0)]}
    result = tally(rows)
    assert [p.name for p in result.players] == ["Zoe", "Al"]
    assert result.winners == ("Zoe",)  # 5 + 20 charity beats 5 + 1


def test_a_shorter_game_can_be_tallied_with_rounds() -> None:
    result = score({"rounds": 1, "sheets": {"A": [[6, 15, 0, 2]], "B": [[7, 0, 2, 0]]}})
    assert result["players"]["A"]["total"] == 41
    assert result["winners"] == ["A"]


BAD = [
    ({"sheets": {"A": MARKO_GAME["Lena"]}}, "2 to 4 players"),
    ({"sheets": {"A": MARKO_GAME["Lena"][:6], "B": MARKO_GAME["Marko"]}}, "exactly 7 items"),
    ({"sheets": {"A": [[15, 20, 0, 0]] * 7, "B": MARKO_GAME["Marko"]}}, r"bonus\) must be one"),
    ({"sheets": {"A": [[0, 0, 0, 0]] * 7, "B": MARKO_GAME["Marko"]}}, r"rolled\) must be"),
    ({"sheets": {"A": [[5, 0, -1, 0]] * 7, "B": MARKO_GAME["Marko"]}}, r"received\) must be"),
    ({"sheets": {"A": [[5, 0, 0]] * 7, "B": MARKO_GAME["Marko"]}}, "exactly 4 items"),
    ({"sheets": {"A": [[5, 0, 0, "x"]] * 7, "B": MARKO_GAME["Marko"]}}, "must be an integer"),
    ({"sheets": [], "x": 1}, "unknown field"),
    ({"sheets": []}, "must be a JSON object"),
    ({"sheets": {" ": MARKO_GAME["Lena"], "B": MARKO_GAME["Marko"]}}, "player names"),
]


@pytest.mark.parametrize(("payload", "message"), BAD)
def test_bad_sheets_are_refused(payload: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        score(payload)


def run_cli(game: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dicecam", "score", game],
                          input=stdin, capture_output=True, text=True, timeout=60)


def test_cli_scores_sheets() -> None:
    result = run_cli("charidice-sheet", json.dumps({"sheets": MARKO_GAME}))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == CASES[0]["expected"]


def test_cli_refuses_a_bad_sheet_in_one_line() -> None:
    result = run_cli("charidice-sheet", json.dumps(BAD[2][0]))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "bonus" in result.stderr
