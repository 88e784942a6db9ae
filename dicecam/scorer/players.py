"""The players a new game names, checked alike for every game before its own rules see
them: as many as the game takes, and no two names alike but for capitals and spaces
("Anna" and "anna" would share a party zone on the table and a line on the sheet).

The refusals are messages (``dicecam.messages``), so the tablet says them in the players'
language; a config that is no list of names at all is left to the game's codec, which names
the field that is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dicecam.errors import InputError
from dicecam.messages import Catalogue

MESSAGES = Catalogue({
    "setup.players_few": {
        "en": "This game needs at least {min} players: enter {missing} more "
              "{missing:name|names}.",
        "de": "Dieses Spiel braucht mindestens {min} Spieler: gib noch {missing} "
              "{missing:Namen|Namen} ein."},
    "setup.players_many": {
        "en": "This game takes at most {max} players: remove {extra} {extra:name|names}.",
        "de": "Dieses Spiel erlaubt höchstens {max} Spieler: streiche {extra} "
              "{extra:Namen|Namen}."},
    "setup.player_twice": {
        "en": "\u201c{name}\u201d and \u201c{other}\u201d are the same name to dicecam "
              "(capitals do not count): give every player a name of their own.",
        "de": "\u201e{name}\u201c und \u201e{other}\u201c sind für dicecam derselbe Name "
              "(Groß- und Kleinschreibung zählt nicht): gib jedem Spieler einen eigenen "
              "Namen."},
})


def same_name(name: str) -> str:
    """A name as players tell names apart: capitals and spaces do not count."""
    return " ".join(name.split()).casefold()


def check_players(config: Mapping[str, Any], min_players: int, max_players: int) -> None:
    """InputError (a message) when ``config["players"]`` holds too few or too many players,
    or one name twice; anything else is for the game's codec to judge."""
    if not isinstance(config, Mapping) or not isinstance(config.get("players"), list):
        return
    players = config["players"]
    names = [p.get("name") if isinstance(p, Mapping) else p for p in players]
    if len(names) < min_players:
        raise InputError(MESSAGES("setup.players_few", min=min_players,
                                  missing=min_players - len(names)))
    if len(names) > max_players:
        raise InputError(MESSAGES("setup.players_many", max=max_players,
                                  extra=len(names) - max_players))
    seen: dict[str, str] = {}
    for name in names:
        if not isinstance(name, str):
            continue
        key = same_name(name)
        if key in seen:
            raise InputError(MESSAGES("setup.player_twice", name=seen[key], other=name))
        seen[key] = name
