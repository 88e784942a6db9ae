"""Dicetopia's endgame: dice on a city of six districts and on faction boards, scored."""

from __future__ import annotations

from pathlib import Path

from dicecam.scorer.descriptor import GameDescriptor
from dicecam.scorer.dicetopia import adapter, codec, endgame, model, rules_help

GAME = GameDescriptor(
    name="dicetopia",
    title=codec.TITLE,
    dice_set="dicetopia",
    demo_dice_per_roll=9,
    min_players=model.MIN_PLAYERS,
    max_players=model.MAX_PLAYERS,
    codec=codec,
    adapter=adapter.action_from_roll,
    colour_groups=adapter.colour_groups,
    scorers={"dicetopia": codec.score},
    cases=Path(__file__).with_name("cases.json"),
    help=rules_help.HELP,
    standing=codec.standing,
    catalogue=codec.catalogue,
    missions=codec.mission_cards,
    table_due=endgame.table_due,
    drawn_boards=endgame.DRAWN_BOARDS,
    roll_summary=endgame.roll_summary,
)
