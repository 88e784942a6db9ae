"""The V6 dice tournament: one die, fifteen jokers, groups of four, an evening's standings."""

from __future__ import annotations

from pathlib import Path

from dicecam.scorer.descriptor import GameDescriptor, TournamentEvening, Variant, VariantKind
from dicecam.scorer.v6 import adapter, codec, groups, rules, rules_help, seating, tables

GAME = GameDescriptor(
    name="v6",
    title=codec.TITLE,
    dice_set="v6",
    demo_dice_per_roll=1,
    min_players=groups.MIN_GROUP,
    max_players=rules.MAX_PLAYERS,
    codec=codec,
    adapter=adapter.action_from_roll,
    scorers={"v6": codec.score},
    cases=Path(__file__).with_name("cases.json"),
    help=rules_help.HELP,
    standing=codec.standing,
    variants=(Variant("final", VariantKind.FLAG, False, "v6_final"),),
    throw_due=adapter.throw_due,
    catalogue=codec.catalogue,
    tournament=TournamentEvening(
        reports_from_state=tables.reports_from_state,
        report_to_json=tables.report_to_json,
        final_stage=tables.FINAL,
        group_size=groups.GROUP_SIZE,
        min_group=groups.MIN_GROUP,
        seated_config=seating.seated_config,
        plays_seating=seating.plays_seating,
        evening_over=seating.evening_over,
    ),
)
