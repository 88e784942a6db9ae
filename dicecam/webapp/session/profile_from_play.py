"""Colour calibration from play: the first roll the players confirm fits the table's colours.

A roll the players looked at and confirmed (the asked dice said right, or a die tapped to
its true value or colour) is a set of dice of known colours lying on this table under this
lamp: exactly what ``dicecam calibrate colours`` asks players to lay out by hand. So once
per game, the first such roll that shows every colour of the set fits the set's profile
(``vision.colour_fit.fit_profile``) from the very picture the roll was read from, saves it
under the set's name (a saved profile comes before the built-in one, also at the next
start) and hands it to the running reader. A roll typed in by hand has no picture and a
roll scored without asking teaches nothing new, so neither is used.

Fitting from the set's built-in profile each time (not from the last fit) keeps one odd
roll from drifting the table's colours further game after game.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence

import numpy as np

from dicecam.calibration.profile import (
    ColourProfile,
    builtin_profile_names,
    load_builtin_profile,
    save_profile,
)
from dicecam.errors import InputError
from dicecam.vision.colour.fit import ColourSample, fit_profile
from dicecam.webapp.session.views import CurrentRoll

log = logging.getLogger(__name__)

#: A roll fits the colours only when it shows at least this many dice of every colour
#: (what ``dicecam calibrate colours`` asks for): one die per colour fits its own shading.
MIN_DICE_PER_COLOUR = 3
#: Pictures of the last settled rolls kept for a later confirmation (a confirmation comes
#: seconds after its roll settled, before the next throw or two).
KEEP_PICTURES = 3


class ProfileFromPlay:
    """Remembers the pictures of settled rolls and fits a profile from a confirmed one."""

    def __init__(self, use_profile: Callable[[ColourProfile], None] | None = None) -> None:
        self._use_profile = use_profile
        self._pictures: OrderedDict[int, np.ndarray] = OrderedDict()
        self._fitted_games: set[int] = set()
        self._lock = threading.Lock()

    def remember(self, roll_id: int, frame_bgr: np.ndarray) -> None:
        """The picture a settled roll (the session's ``roll_id``) was read from."""
        with self._lock:
            self._pictures[roll_id] = frame_bgr
            self._pictures.move_to_end(roll_id)
            while len(self._pictures) > KEEP_PICTURES:
                self._pictures.popitem(last=False)

    def confirmed(self, game_id: int, dice_set: str, roll: CurrentRoll) -> ColourProfile | None:
        """A roll of game ``game_id`` was scored after the players confirmed or corrected
        it: the profile fitted from it (saved and handed on), or None where it cannot
        teach the table's colours (no picture, a colour missing, dice too unlike)."""
        with self._lock:
            if game_id in self._fitted_games:
                return None
            picture = self._pictures.get(roll.roll_id)
        if picture is None or dice_set not in builtin_profile_names():
            return None
        base = load_builtin_profile(dice_set)
        samples = [ColourSample((d.x, d.y, d.w, d.h), d.colour) for d in roll.dice
                   if d.colour in base.colours]
        if not shows_every_colour([s.colour for s in samples], base.colours):
            return None  # a later roll of the game may show them all
        try:
            profile = fit_profile(picture, samples, base, name=dice_set,
                                  source=f"roll {roll.roll_id}, confirmed at the table")
            save_profile(profile)
        except InputError as exc:  # a die too unlike its colour, a full disk: keep playing
            log.info("the confirmed roll %s does not fit %s's colours: %s", roll.roll_id,
                     dice_set, exc)
            return None
        with self._lock:
            self._fitted_games.add(game_id)
        log.info("fitted the %s colours of this table from confirmed roll %s", dice_set,
                 roll.roll_id)
        if self._use_profile is not None:
            self._use_profile(profile)
        return profile


def shows_every_colour(colours: Sequence[str | None], wanted: Sequence[str],
                       at_least: int = MIN_DICE_PER_COLOUR) -> bool:
    """Whether ``colours`` (a roll's dice) hold ``at_least`` dice of each of ``wanted``."""
    counts = Counter(colours)
    return all(counts[c] >= at_least for c in wanted)
