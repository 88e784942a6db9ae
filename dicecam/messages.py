"""Sentences the players read, as a message id with parameters, worded in each language.

The rules engines stay free of any one language: a verdict, a "waiting for" text or a rule
error is a ``Message`` (an id and its parameters). Each game keeps its catalogue of
templates in English and German (``scorer/<game>/messages.py``); the tablet words a message
in the player's language from those tables, and the command line prints the English text
(``english``), so ``dicecam score`` reads as it always did.

A template names its parameters in braces: ``"{player} holds {n} dice"``. A parameter is
text, a number, another message (a district's name in the player's language), or a tuple
of those, worded as a list ("Anna, Ben and Cleo" / "Anna, Ben und Cleo"). A word that
follows a number names it as ``{n:one|other}``: the first form where the parameter ``n`` is
1, the second otherwise (``"{n} {n:die|dice}"``: "1 die", "2 dice"; the page's own words
in ``static/i18n.js`` read the same form).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Union

LANGUAGES = ("en", "de")

Param = Union[str, int, float, "Message", tuple[Any, ...]]

_TEMPLATES: dict[str, dict[str, str]] = {}


def en_de(en: str, de: str) -> dict[str, str]:
    """One template's words in English and German (a catalogue's entry)."""
    return {"en": en, "de": de}

#: how a list parameter ends, per language
_AND = {"en": " and ", "de": " und "}
#: a word in the form its number asks for: ``{n:one|other}``
_PLURAL = re.compile(r"\{(\w+):([^{}|]*)\|([^{}|]*)\}")


@dataclass(frozen=True)
class Message:
    """One sentence for players: its id in a catalogue and the values it names."""

    id: str
    params: tuple[tuple[str, Param], ...] = ()

    def param(self, name: str) -> Param:
        return dict(self.params)[name]

    def to_json(self) -> dict[str, Any]:
        return {"msg": self.id, "params": {k: _param_json(v) for k, v in self.params}}

    def text(self, lang: str = "en") -> str:
        return render(self.id, dict(self.params), lang)

    def __str__(self) -> str:
        return self.text("en")


class Catalogue:
    """One game's templates, ``{id: {"en": ..., "de": ...}}``; calling it makes a message
    (an unknown id or a missing language is a bug, caught on import or in the first test)."""

    def __init__(self, templates: Mapping[str, Mapping[str, str]]) -> None:
        for msg_id, words in templates.items():
            missing = [lang for lang in LANGUAGES if not words.get(lang)]
            if missing:
                raise ValueError(f"message {msg_id!r} has no text in {', '.join(missing)}")
            if msg_id in _TEMPLATES and _TEMPLATES[msg_id] != dict(words):
                raise ValueError(f"message id {msg_id!r} is defined twice")
            _TEMPLATES[msg_id] = dict(words)
        self.ids = frozenset(templates)

    def __call__(self, msg_id: str, **params: Param) -> Message:
        if msg_id not in self.ids:
            raise KeyError(f"no message {msg_id!r} in this catalogue")
        return Message(msg_id, tuple(params.items()))


#: a sentence: a message, or plain text where nothing needs wording (a name)
Text = str | Message

#: how sentences are put together (the same in every language), and what the tablet says
#: of any game's dice
CORE = Catalogue({
    "core.parts": {"en": "{first}; {second}", "de": "{first}; {second}"},
    "core.concat": {"en": "{first}{second}", "de": "{first}{second}"},
    # dice typed in are the player's word: never blamed on the camera
    "core.typed_count": {
        "en": "This throw takes {n} {n:die|dice}, and {typed} {typed:was|were} typed in: "
              "add the missing ones on the pad",
        "de": "Dieser Wurf braucht {n} {n:Würfel|Würfel}, eingegeben {typed:ist|sind} "
              "{typed}: ergänze die fehlenden auf dem Tastenfeld"},
    # two tablets tapped at once: the later tap met a game already moved on
    "core.moved_on": {
        "en": "another tablet changed the game just before this tap: look at the game as it "
              "is now, and tap again if you still want to",
        "de": "ein anderes Tablet hat das Spiel kurz vorher geändert: schau, wie es jetzt "
              "steht, und tippe nochmal, wenn du das noch willst"},
    # a finished game is read-only until the players say otherwise
    "core.finished_reread": {
        "en": "This game is finished: the dice the camera sees now replace its stored "
              "score only if you tap Dice are right",
        "de": "Dieses Spiel ist zu Ende: die Würfel, die die Kamera jetzt sieht, ersetzen "
              "seine gespeicherte Wertung nur, wenn du Würfel stimmen tippst"},
})


def joined(*parts: Text) -> Text:
    """Parts of one note separated by "; " (empty parts left out)."""
    kept = [p for p in parts if p != ""]
    if not kept:
        return ""
    text = kept[0]
    for part in kept[1:]:
        text = CORE("core.parts", first=text, second=part)
    return text


def concat(first: Text, second: Text) -> Text:
    """Two pieces of one sentence, the second following without a separator."""
    if second == "":
        return first
    return CORE("core.concat", first=first, second=second)


def text_json(text: Text) -> Any:
    """A sentence for JSON: a message as ``{"msg", "params"}``, plain text as it is."""
    return text.to_json() if isinstance(text, Message) else text


def _param_json(value: Param) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, tuple | list):
        return [_param_json(v) for v in value]
    return value


def _word(value: Any, lang: str) -> str:
    if isinstance(value, Message):
        return value.text(lang)
    if isinstance(value, Mapping) and "msg" in value:
        return render(value["msg"], value.get("params") or {}, lang)
    if isinstance(value, tuple | list):
        words = [_word(v, lang) for v in value]
        if len(words) <= 1:
            return "".join(words)
        return ", ".join(words[:-1]) + _AND.get(lang, _AND["en"]) + words[-1]
    return str(value)


def render(msg_id: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """The message's text in ``lang`` (English where a language is missing)."""
    words = _TEMPLATES.get(msg_id)
    if words is None:
        raise KeyError(f"no message {msg_id!r}; is its game's messages module imported?")
    text = words.get(lang) or words["en"]
    text = _PLURAL.sub(lambda m: m.group(2) if _is_one(params.get(m.group(1)))
                       else m.group(3), text)
    for name, value in params.items():
        text = text.replace("{" + name + "}", _word(value, lang))
    return text


def _is_one(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and value == 1


def english(value: Any) -> Any:
    """A JSON value with every message in it (``{"msg", "params"}``) worded in English: what
    the command line prints."""
    if isinstance(value, Message):
        return value.text("en")
    if isinstance(value, Mapping):
        if "msg" in value and set(value) <= {"msg", "params"}:
            return render(value["msg"], value.get("params") or {}, "en")
        return {k: english(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [english(v) for v in value]
    return value


def templates() -> dict[str, dict[str, str]]:
    """Every message loaded so far, for the page's language tables."""
    return {k: dict(v) for k, v in sorted(_TEMPLATES.items())}
