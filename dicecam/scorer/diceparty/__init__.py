"""Dice Party: parties of yellow, orange and red pip dice, escalation checked each throw."""

from __future__ import annotations

from pathlib import Path

from dicecam.scorer.descriptor import GameDescriptor, Variant, VariantKind
from dicecam.scorer.diceparty import adapter, codec, grown, rules, rules_help

GAME = GameDescriptor(
    name="diceparty",
    title=codec.TITLE,
    dice_set="diceparty",
    demo_dice_per_roll=12,
    min_players=rules.MIN_PLAYERS,
    max_players=rules.MAX_PLAYERS,
    codec=codec,
    adapter=adapter.action_from_roll,
    scorers={"diceparty": codec.score},
    cases=Path(__file__).with_name("cases.json"),
    help=rules_help.HELP,
    standing=codec.standing,
    variants=(Variant("party_animal", VariantKind.FLAG, False, "dp_party_animal"),),
    colour_groups=adapter.colour_groups,
    throw_due=adapter.throw_due,
    dice_marks=codec.roll_dice_marks,
    roll_summary=adapter.roll_summary,
    aside_dice=adapter.aside_dice,
    demo_crowded=grown.full_parties,
)
