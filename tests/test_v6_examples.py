"""The V6 rulebook's worked examples as data (Regelwerk 2020, section 3, one per joker).

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

from dicecam.games.v6 import round as r
from dicecam.games.v6.jokers import JokerId

OPPONENTS = [{"name": "Bea", "total": 30}, {"name": "Cem", "total": 30},
             {"name": "Dan", "total": 30}]

EXAMPLES: list[dict[str, Any]] = [
    {
        "description": "Jules Törtchen: +1 per throw after the free throw; ones steal 1, 2, 3",
        "section": "3 I, Jules Törtchen, Beispiel",
        "input": {"jokers": ["jule"], "events": [
            ["t3", 3], ["t4", 8], ["t1", 10], ["s:Bea", 10], ["t1", 13], ["s:Bea", 13],
            ["t5", 19], ["t1", 23], ["s:Cem", 23], ["stop", 23]]},
        "expected": {"outcome": "stopped", "opponents": {"Bea": 27, "Cem": 27, "Dan": 30}},
    },
    {
        "description": "Ahris Tentakel with Törtchen: +5 on 1 and 2, no thieving one, "
                       "then the six",
        "section": "3 I, Ahris Tentakel, Beispiel",
        "input": {"jokers": ["ahri", "jule"], "events": [
            ["t6", 6], ["t3", 10], ["t4", 15], ["t1", 22], ["t2", 30], ["t1", 37],
            ["t6", 0]]},
        "expected": {"outcome": "zombie"},
    },
    {
        "description": "Fumo doubles and covers Törtchen and Tentakel until ended",
        "section": "3 I, Fumo, Beispiel",
        "input": {"jokers": ["jule", "ahri", "fumo"], "events": [
            ["t2", 2], ["t5", 8], ["j:fumo", 8], ["t1", 10], ["t4", 18], ["t3", 24],
            ["end_fumo", 24], ["t2", 32], ["stop", 32]]},
        "expected": {"outcome": "stopped"},
    },
    {
        "description": "All In after Fumo: a 2 doubles the total, Törtchen +1",
        "section": "3 I, All In, Beispiel",
        "input": {"jokers": ["jule", "fumo", "all_in"], "events": [
            ["t4", 4], ["t1", 6], ["s:Bea", 6], ["j:fumo", 6], ["t3", 12], ["t5", 22],
            ["end_fumo", 22], ["j:all_in", 22], ["t2", 45], ["stop", 45]]},
        "expected": {"outcome": "stopped"},
    },
    {
        "description": "Elas' Ventil secures 22 (ending Fumo); the six falls back to 22",
        "section": "3 I, Elas' Ventil, Beispiel",
        "input": {"jokers": ["jule", "fumo", "ventil"], "events": [
            ["t2", 2], ["j:fumo", 2], ["t4", 10], ["t1", 12], ["t5", 22], ["j:ventil", 22],
            ["t3", 26], ["t6", 22]]},
        "expected": {"outcome": "secured"},
    },
    {
        "description": "Hirtenschutz doubles the six; the Ventil is powerless against All In",
        "section": "3 IIa, Hirtenschutz, Beispiel",
        "input": {"jokers": ["all_in", "ventil", "hirte"], "events": [
            ["t1", 1], ["t4", 5], ["t2", 7], ["j:hirte", 7], ["t6", 19], ["t1", 20],
            ["s:Bea", 20], ["j:ventil", 20], ["t5", 25], ["j:all_in", 25], ["t4", 0]]},
        "expected": {"outcome": "zombie"},
    },
    {
        "description": "Spelunkenbold after Hirtenschutz, with Ahris Tentakel",
        "section": "3 IIa, Spelunkenbold, Beispiel",
        "input": {"jokers": ["ahri", "hirte", "spelunke"], "events": [
            ["t3", 3], ["t5", 8], ["t1", 14], ["t1", 20], ["j:hirte", 20], ["t2", 24],
            ["j:spelunke", 24], ["t4", 33], ["stop", 33]]},
        "expected": {"outcome": "stopped",
                     "rulebook_totals": [3, 7, 13, 19, 19, 23, 23, 32, 32],
                     "disagreement": "the second throw is printed as 5 but added as 4 "
                                     "('3 + 4 = 7'); with the 5 every later total is one "
                                     "higher (8, 14, 20, 24, 33)"},
    },
    {
        "description": "Kälteschutz four uses (add above the count, subtract otherwise; "
                       "the six spends it), Spelunkenbold's six costs 3",
        "section": "3 IIa, Kälteschutz, Beispiel",
        "input": {"jokers": ["spelunke", "kaelte"], "events": [
            ["t2", 2], ["t4", 6], ["j:kaelte", 6], ["t5", 11], ["j:spelunke", 11],
            ["t6", 8], ["j:kaelte", 8], ["t2", 6], ["j:kaelte", 6], ["t1", 5],
            ["j:kaelte", 5], ["t6", 11], ["stop", 11]]},
        "expected": {"outcome": "stopped",
                     "disagreement": "the second throw is printed '2 + 4 + 6', a typo for "
                                     "'2 + 4 = 6' (the next line goes on from 6)"},
    },
    {
        "description": "Moes Monokel: the first throw is thrown again, the second kept; "
                       "one Törtchen pip after both",
        "section": "3 IIb, Moes Monokel, Beispiel",
        "input": {"jokers": ["monokel", "jule"], "events": [
            ["t5", 5], ["t2", 8], ["t4", 13], ["j:monokel", 13], ["t2", 13],
            ["c:reroll", 13], ["t5", 18], ["t6", 18], ["c:keep", 25], ["stop", 25]]},
        "expected": {"outcome": "stopped"},
    },
    {
        "description": "Pony fails (4+4+2 = 10 < 11): -3, and the Ventil's 21 drop to 19",
        "section": "3 IIb, Pony, Beispiel",
        "input": {"jokers": ["fumo", "ventil", "pony"], "events": [
            ["t1", 1], ["j:fumo", 1], ["t5", 11], ["t3", 17], ["t2", 21], ["j:ventil", 21],
            ["t1", 22], ["s:Bea", 22], ["j:pony", 22], ["t4", 22], ["t4", 22], ["t2", 19]]},
        "expected": {"outcome": "playing", "protected": 19},
    },
    {
        "description": "Anaconda (Oce) after three Kälteschutz uses: 4 beats 2, +4 +12",
        "section": "3 IIb, Anaconda, Beispiel",
        "input": {"jokers": ["kaelte", "oce"], "events": [
            ["t6", 6], ["j:kaelte", 6], ["t3", 9], ["j:kaelte", 9], ["t1", 8],
            ["j:kaelte", 8], ["t4", 12], ["j:oce", 12], ["t2", 12], ["c:fight", 12],
            ["t4", 28]]},
        "expected": {"outcome": "playing"},
    },
    {
        "description": "Rattenlord lost (4, 2): -10 +1 Törtchen; the Ventil's 18 drop to 13",
        "section": "3 IIb, Rattenlord, Beispiel",
        "input": {"jokers": ["jule", "ventil", "ratte"], "events": [
            ["t2", 2], ["t5", 8], ["t1", 10], ["s:Bea", 10], ["t4", 15], ["t1", 18],
            ["s:Bea", 18], ["j:ventil", 18], ["t3", 22], ["j:ratte", 22], ["t4", 22],
            ["c:again", 22], ["t2", 13]]},
        "expected": {"outcome": "playing", "protected": 13},
    },
    {
        "description": "Senigmas Sekante 4:2 after a successful Pony: +2, taken from Bea",
        "section": "3 IIb, Senigmas Sekante, Beispiel",
        "input": {"jokers": ["pony", "sekante"], "events": [
            ["t5", 5], ["t1", 6], ["s:Bea", 6], ["j:pony", 6], ["t2", 6], ["t6", 6],
            ["t4", 18], ["j:sekante:Bea", 18], ["t3", 18], ["c:pass", 18], ["t6", 18],
            ["c:challenge", 18], ["t2", 18], ["t4", 18], ["c:challenge", 18], ["t4", 18],
            ["t5", 18], ["c:challenge", 18], ["t1", 18], ["t3", 18], ["c:pass", 20]]},
        "expected": {"outcome": "playing", "opponents": {"Bea": 27}},
    },
    {
        "description": "Cherrys Höschen: three successes, one countered: +6",
        "section": "3 IIb, Cherrys Höschen, Beispiel",
        "input": {"jokers": ["hoeschen"], "events": [
            ["t3", 3], ["t1", 4], ["s:Bea", 4], ["t1", 6], ["s:Bea", 6], ["j:hoeschen", 6],
            ["t2", 6], ["t6", 6], ["t4", 6], ["t3", 6], ["t5", 6], ["t3", 6], ["t1", 12]]},
        "expected": {"outcome": "playing"},
    },
    {
        "description": "Runkelrüb voids the six under Fumo and takes Fumo's doublings back",
        "section": "3 IIb, Runkelrüb, Beispiel",
        "input": {"jokers": ["fumo", "kaelte", "runkelrueb"], "events": [
            ["t6", 6], ["j:kaelte", 6], ["t4", 10], ["j:kaelte", 10], ["t3", 13],
            ["j:kaelte", 13], ["t6", 19], ["j:fumo", 19], ["t1", 21], ["t4", 29],
            ["t6", 29], ["t3", 29], ["t1", 24]]},
        "expected": {"outcome": "playing", "fumo_running": False},
    },
]


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
