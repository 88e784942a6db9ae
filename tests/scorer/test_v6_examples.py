"""The V6 rulebook's worked examples as data in dicecam/scorer/v6/cases.json
(Regelwerk 2020, section 3, one per joker).

Each case: ``input`` holds the jokers, the opponents (standing totals; the rulebook never
names a victim, so a rich opponent "Bea" is robbed and no zombie pips arise) and the
events in a compact notation, each paired with the total after it (the rulebook prints
the total after every throw; announcements and a joker's inner throws leave it standing,
except Monokel's kept throws); ``expected`` holds the round's outcome and more. Where the
rulebook's arithmetic disagrees with its own rules, ``rulebook_totals`` keeps what it
prints, ``disagreement`` says why, and the paired totals follow the rules.

Notation: "t4" the croupier throws a 4; "j:fumo" announce a joker ("j:sekante:Bea" with
its opponent); "end_fumo"; "stop"; "c:reroll" a choice inside a joker; "s:Bea" rob Bea.
"""

from __future__ import annotations

from typing import Any

import pytest

from dicecam.scorer.registry import get_game
from dicecam.scorer.v6 import player_round as r
from dicecam.scorer.v6.jokers import JokerId

OPPONENTS = [{"name": "Bea", "total": 30}, {"name": "Cem", "total": 30},
             {"name": "Dan", "total": 30}]

EXAMPLES = get_game("v6").worked_examples("round")


# --- the test -----------------------------------------------------------------------------


def parse_event(text: str) -> r.RoundAction:
    if text == "stop":
        return r.Stop()
    if text == "end_fumo":
        return r.EndFumo()
    if text.startswith("t"):
        return r.Throw(int(text[1:]))
    kind, _, rest = text.partition(":")
    if kind == "j":
        joker, _, opponent = rest.partition(":")
        return r.Announce(JokerId(joker), opponent or None)
    if kind == "c":
        return r.Choose(rest)
    if kind == "s":
        return r.Steal(rest)
    raise ValueError(f"bad event notation {text!r}")


def play(case_input: dict[str, Any]) -> tuple[r.RoundState, list[int]]:
    opponents = [r.Opponent(**o) for o in case_input.get("opponents", OPPONENTS)]
    state = r.new_round("Ann", [JokerId(j) for j in case_input["jokers"]], opponents)
    totals = []
    for text, _ in case_input["events"]:
        state = r.apply(state, parse_event(text))
        totals.append(state.total)
    return state, totals


@pytest.mark.parametrize("case", EXAMPLES, ids=[c["section"] for c in EXAMPLES])
def test_rulebook_example(case: dict[str, Any]) -> None:
    state, totals = play(case["input"])
    expected = case["expected"]
    assert totals == [total for _, total in case["input"]["events"]]
    assert state.outcome.value == expected["outcome"]
    if "protected" in expected:
        assert state.protected == expected["protected"]
    if "fumo_running" in expected:
        assert state.fumo_running == expected["fumo_running"]
    for name, total in expected.get("opponents", {}).items():
        assert state.opponent(name).total == total
    # the state's log agrees with the running totals, event by event
    assert [entry.total for entry in state.log] == totals


def test_there_is_one_example_per_joker() -> None:
    seen = {JokerId(j) for case in EXAMPLES for j in case["input"]["jokers"]}
    assert seen == set(JokerId)
    assert len(EXAMPLES) == 15


@pytest.mark.parametrize("case", [c for c in EXAMPLES if "rulebook_totals" in c["expected"]],
                         ids=lambda c: c["section"])
def test_rulebook_arithmetic_disagreement_is_real(case: dict[str, Any]) -> None:
    """The printed totals really differ from the rules' totals (so the note is needed)."""
    printed = case["expected"]["rulebook_totals"]
    _, totals = play(case["input"])
    assert len(printed) == len(totals) and printed != totals
    assert case["expected"]["disagreement"]
