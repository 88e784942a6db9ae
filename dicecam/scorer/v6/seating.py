"""A table seated by the tournament hub: the V6 game it starts for the group the hub seats
there (``TournamentEvening`` in the descriptor; the table's side is ``webapp/hub_link``).

The hub says, for a table, the evening's stage and the group it seats there, and for a final
table the jokers its players spent at other tables (``tables.spent_by``). The table starts
that group's game when it is free for it: no game running, or a V6 evening that is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dicecam.scorer.v6.groups import MIN_GROUP
from dicecam.scorer.v6.tables import FINAL


def seated_config(assignment: Mapping[str, Any]) -> dict[str, Any] | None:
    """The config of the game the hub's ``assignment`` (``stage``, ``group``, ``spent``)
    seats at this table; None when it seats no group (too few players, or none yet)."""
    group = list(assignment.get("group") or [])
    if len(group) < MIN_GROUP:
        return None
    final = assignment.get("stage") == FINAL
    config: dict[str, Any] = {"players": group, "groups": [group], "final": final}
    if final and assignment.get("spent"):  # the evening's jokers, used at other tables
        config["spent"] = dict(assignment["spent"])
    return config


def plays_seating(config: Mapping[str, Any], seated: Mapping[str, Any]) -> bool:
    """Whether a running game of ``config`` is the one ``seated`` starts: the same players
    at the same stage (the jokers spent elsewhere may have been learnt since)."""
    return sorted(config.get("players", [])) == sorted(seated["players"]) and \
        bool(config.get("final")) == bool(seated["final"])


def evening_over(state: Mapping[str, Any]) -> bool:
    """Whether a running game (its ``state_to_json``) is over, so the table is free."""
    return state.get("phase") == "over"
