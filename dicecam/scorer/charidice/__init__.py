"""Charidice: six numeral dice, seven rounds of scoring and giving, a charity bonus."""

from __future__ import annotations

from pathlib import Path

from dicecam.scorer.charidice import adapter, codec, rules, rules_help, sheet_codec
from dicecam.scorer.descriptor import GameDescriptor

GAME = GameDescriptor(
    name="charidice",
    title=codec.TITLE,
    dice_set="charidice",
    demo_dice_per_roll=6,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    codec=codec,
    adapter=adapter.action_from_roll,
    scorers={"charidice": codec.score, "charidice-sheet": sheet_codec.score},
    cases=Path(__file__).with_name("cases.json"),
    help=rules_help.HELP,
    standing=codec.standing,
    throw_due=adapter.throw_due,
)
