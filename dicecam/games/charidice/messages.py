"""Charidice's sentences for players, in English and German (see ``dicecam.messages``)."""

from __future__ import annotations

from dicecam.messages import Catalogue

MESSAGES = Catalogue({
    "cd.scored": {"en": "{player} scored {points} + {bonus} bonus and gave {gift} to "
                        "{recipient}.",
                  "de": "{player} hat {points} + {bonus} Bonus gewertet und {recipient} "
                        "{gift} gespendet."},
    "cd.scored_big": {"en": "{player} scored {points} + {bonus} bonus and gave {gift} to "
                            "{recipient} (big gift, doubled).",
                      "de": "{player} hat {points} + {bonus} Bonus gewertet und {recipient} "
                            "{gift} gespendet (große Spende, verdoppelt)."},
    "cd.game_over_one": {"en": "Game over: {winners} wins.",
                         "de": "Spielende: {winners} gewinnt."},
    "cd.game_over_many": {"en": "Game over: {winners} win.",
                          "de": "Spielende: {winners} gewinnen."},
    "cd.round": {"en": "Round {round}: {player} to play, throw {throw} of {throws}.",
                 "de": "Runde {round}: {player} ist dran, Wurf {throw} von {throws}."},
})
