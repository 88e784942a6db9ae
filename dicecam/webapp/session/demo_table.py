"""The demo table plays the game: it throws what the game waits for, when it waits for it.

``DemoDirector`` directs the demo source (``dicecam.vision.sources.demo``): before each throw the
demo asks it what to throw. It answers from the active game's ``throw_due``
(``dicecam.scorer``): the thrower's whole party in Dice Party, six dice (the kept ones as
they lie) in Charidice, one die in V6. A throw the game waits for by itself comes at once;
one the players choose (V6's "throw again", a Charidice re-throw) waits until a tablet
asks for it (``request``). Each throw is made once: the next comes only after the game
has taken it (its action count changed), so a throw the tablet must correct first is
not thrown again over it. Each throw is seeded by the game and its move, so no two games
throw the same dice. A game read where its dice lie at the end (``table_due``:
Dicetopia) is laid out instead, and stays laid out while that game is played.

The camera opens the demo anew for each game played (its dice set), and each opening asks
through a director of its own (``opening(game)``). Only the latest opening, and only while
its game is the one played, may throw: the source of the game before is read a few frames
ahead on its pump thread (``camera/pump.py``) until the live reader gives it up, and a
throw it took for the new game would be drawn there, never seen, and never thrown again
(a Charidice game started right after a Dice Party game then waited for ever).

A source given up while its throw still rolled (the camera stalled: on two busy cores a
54-die throw's first frames took longer than the live reader waits) took that throw with
it: the next opening lay still and the game waited for ever (``bench web --game
diceparty`` settled 1 roll in 4 minutes). So a new opening throws the last throw again
when no roll settled since it was thrown; a roll waiting for a tap is never thrown over.

A tablet may ask the demo to lay out the one-minute teaching layout (``request_layout``):
the game's dice in six rows by value, a colour per column, which then lies (the game's
throw waits for a tablet to ask for it), so teaching can be tried on the demo.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from dicecam.errors import InputError
from dicecam.scorer.descriptor import TableDue
from dicecam.vision.sources.demo import DemoThrow, Director
from dicecam.vision.sources.demo_boards import DemoLayout, LaidZone
from dicecam.webapp.session.game_session import GameSession
from dicecam.webapp.session.messages import APP

#: the teaching layout's columns: as many colours of the set as the tablet's diagram shows
LAYOUT_COLUMNS = 4


class DemoDirector:
    def __init__(self, session: GameSession) -> None:
        self._session = session
        self._lock = threading.Lock()
        self._thrown_at: tuple[Any, ...] | None = None
        self._thrown_when = 0.0  # wall clock, as a roll's settled_at
        self._asked_at: tuple[Any, ...] | None = None
        #: a tablet asked the demo to lay the teaching layout out (the game's key then)
        self._layout_asked: tuple[Any, ...] | None = None
        #: the game's key when the layout was laid: it lies until a tablet asks for a throw
        self._layout_at: tuple[Any, ...] | None = None
        #: the latest opening of the demo source (the only one that may throw)
        self._latest: object | None = None

    def opening(self, game: str) -> Director:
        """The director of one opening of the demo source, made for ``game``: it throws
        only while ``game`` is played and no later opening was made."""
        token = object()
        roll = self._session.roll_payload()
        with self._lock:
            self._latest = token
            if roll is None or roll["settled_at"] < self._thrown_when:
                self._thrown_at = None  # the last throw went with the source given up

        def direct() -> DemoThrow | DemoLayout | None:
            return self._layout(token, game) or self._throw(token, game)

        return direct

    def _throw(self, token: object, game: str) -> DemoThrow | None:
        key, due = self._session.throw_due()
        # (the colours read outside the lock: the session's view asks this director too)
        layout = self._teaching_layout() if self._layout_asked is not None else None
        with self._lock:
            if token is not self._latest or key[0] != game:
                return None  # a source given up, or one made for the game before
            if self._layout_asked is not None and layout is not None:
                self._layout_asked = None
                self._layout_at = key
                self._thrown_at = None  # the throw lying before is swept away: again later
                self._thrown_when = time.time()
                return layout
            if self._layout_at is not None and self._layout_at == key:
                return None  # the layout lies until the players ask for the throw
            if due is None or key == self._thrown_at:
                return None
            if not due.by_itself and self._asked_at != key:
                return None
            self._thrown_at = key
            self._thrown_when = time.time()
        # seeded by the game and its move: each game throws its own dice, and a game
        # resumed after a restart does not replay the throws it had
        return DemoThrow(due.colours, due.values, seed=(int(key[1]), int(key[2])))

    def _layout(self, token: object, game: str) -> DemoLayout | None:
        key, due = self._session.table_due()
        with self._lock:
            if token is not self._latest or key is None or key[0] != game or due is None:
                return None
        return demo_layout(due, serial=key[1])

    def waiting(self) -> str | None:
        """"auto" when the demo throws by itself now, "ask" when it waits for a tablet to
        ask for the throw (or the teaching layout lies), None when the game waits for no
        dice (or the throw is made)."""
        key, due = self._session.throw_due()
        with self._lock:
            if due is None or key == self._thrown_at:
                return None
            if self._layout_at == key and self._asked_at != key:
                return "ask"
            return "auto" if due.by_itself or self._asked_at == key else "ask"

    def request_layout(self) -> dict[str, Any]:
        """A tablet asks the demo to lay its dice out as the one-minute teaching layout
        (six rows by value, a colour per column): the teaching can be tried on the demo."""
        key, _due = self._session.throw_due()
        if key[0] is None:
            raise InputError(APP("app.demo_layout_no_game"))
        with self._lock:
            self._layout_asked = key
        return {"laying_out": True}

    def _teaching_layout(self) -> DemoThrow:
        """The teaching layout of the game's dice set: its first colours, a die of each in
        every row."""
        colours = tuple(self._session.view().get("colours") or ())[:LAYOUT_COLUMNS] or (None,)
        return DemoThrow(tuple(c for _ in range(6) for c in colours),
                         tuple(v for v in range(1, 7) for _ in colours), rows=True)

    def request(self) -> dict[str, Any]:
        """A tablet asks the demo for the throw the players chose."""
        key, due = self._session.throw_due()
        if due is None:
            raise InputError(APP("app.demo_nothing_due"))
        with self._lock:
            if key == self._thrown_at:
                raise InputError(APP("app.demo_thrown"))
            self._asked_at = key
            self._layout_at = None  # the layout is swept away for the throw
        return {"throwing": True}


def demo_layout(due: TableDue, serial: int = 0) -> DemoLayout:
    """The demo's layout of a game's table (the same facts in the demo's own terms), for
    game ``serial`` (a new game lays its table anew)."""
    return DemoLayout(due.boards, tuple(LaidZone(z.zone, z.dice, z.markers) for z in due.zones),
                      due.colours, serial)
