"""The games' help that the page shows (the ? in the bar), and the rules page behind its link
(``/rules/<game>``), in English and German.

Each game says what its help and rulebook are (``GameHelp``, its descriptor's ``help``).
The rulebooks themselves are the publishers' texts and carry no licence to copy them, so
dicecam does not ship them: the rules page gives the game's help, its own data tables
(jokers, mission cards) and the rulebook's title, and shows the owner's copy of the
rulebook in full where one was put in ``$DICECAM_HOME/rulebooks/`` (``rulebook_files``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dicecam.paths import dicecam_home
from dicecam.scorer.registry import game_names, get_game

LANGUAGES = ("en", "de")

def help_json() -> dict[str, Any]:
    """For the page: every game's help and rulebook title, per language, and whether its
    rules page holds more than the help (``rules_page``: the help links it only then)."""
    return {name: {"sections": {lang: [{"title": t, "text": x} for t, x in sections]
                                for lang, sections in game_help.sections.items()},
                   "rulebook": dict(game_help.rulebook),
                   "rules_page": has_more_than_the_help(name)}
            for name in game_names() if (game_help := get_game(name).help) is not None}


def has_more_than_the_help(game: str) -> bool:
    """Whether the game's rules page shows more than its help: its own tables (jokers,
    missions) or the owner's copy of the rulebook. A link to the help again, or to a page
    that asks a tablet's user to put a file in a server's folder, helps nobody at a table."""
    return bool(rules_tables(game, "en")) or owners_rulebook(game, "en") is not None


def help_sections(game: str, lang: str) -> list[tuple[str, str]]:
    """The game's help in ``lang`` as (heading, text) (none for a game without help)."""
    game_help = get_game(game).help
    return [] if game_help is None else list(game_help.sections.get(lang, ()))


def rulebook_title(game: str, lang: str) -> str | None:
    """The title of the rulebook the game implements, in ``lang`` (None: it cites none)."""
    game_help = get_game(game).help
    return None if game_help is None else game_help.rulebook.get(lang)


def rulebook_files(game: str, lang: str) -> tuple[str, ...]:
    """The file names an owner's copy of the rulebook in ``lang`` may have."""
    game_help = get_game(game).help
    return () if game_help is None else game_help.rulebook_files.get(lang, ())


def rules_tables(game: str, lang: str) -> list[dict[str, Any]]:
    """The game's own tables for its rules page, from the engine's data: V6's jokers,
    Dicetopia's mission cards (name and rule per language)."""
    describe = get_game(game).catalogue
    data = describe() if describe is not None else {}
    tables = []
    if "jokers" in data:
        tables.append({"title": {"en": "Jokers", "de": "Joker"}[lang], "rows": [
            (j["name"], j["rules"][lang]) for j in data["jokers"].values()]})
    if "missions" in data:
        tables.append({"title": {"en": "Mission cards", "de": "Missionskarten"}[lang],
                       "rows": [(m["names"][lang], m["rules"][lang])
                                for m in data["missions"].values()]})
    return tables


def rulebooks_folder() -> Path:
    return dicecam_home() / "rulebooks"


def owners_rulebook(game: str, lang: str) -> tuple[str, str] | None:
    """(file name, text) of the owner's copy of the game's rulebook, in ``lang`` where there
    is one, else the other language's; None when no copy was put there."""
    for wanted in (lang, *(x for x in LANGUAGES if x != lang)):
        for name in rulebook_files(game, wanted):
            path = rulebooks_folder() / name
            if path.is_file():
                return name, path.read_text(encoding="utf-8", errors="replace")
    return None
