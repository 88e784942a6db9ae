"""Who may change the score: tablets paired with the PIN that ``dicecam serve`` prints.

Anyone on the same Wi-Fi can open the page and watch; changing anything needs pairing.
The server makes a short PIN at start (or takes ``PAIRING_PIN`` from the app's config, which
is how tests know it) and shows it only where it runs. A tablet that sends the right PIN gets
a token, which the page keeps and presents when it connects again; each Socket.IO
connection that presented a good token (or the PIN) is paired until it disconnects.

Wrong PINs are limited per guessing client, per address and in all, so that a million
guesses take weeks, not minutes. The client is the browser that typed them (the page sends a
random id it keeps; a page that sends none is its connection): five wrong PINs on one phone
hold up that phone only, not a second tablet behind the same router or proxy. The limit per
address is wider (a household's tablets share one), and the limit in all bounds a guesser who
makes up a new client for each try.

Tokens live as long as the server process: after a restart the server prints a new PIN and
tablets pair again.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from dicecam.errors import InputError
from dicecam.webapp.session.messages import APP

PIN_DIGITS = 6
TOKEN_MAX_LEN = 100
#: tokens remembered at once; the oldest is forgotten first (a tablet then pairs again)
MAX_TOKENS = 500
WINDOW_SECONDS = 60.0
#: wrong PINs allowed from one client (a browser) within WINDOW_SECONDS
MAX_WRONG_PER_CLIENT = 5
#: wrong PINs allowed from one address within WINDOW_SECONDS (tablets behind one router)
MAX_WRONG_PER_ADDRESS = 20
#: wrong PINs allowed from all devices together within WINDOW_SECONDS
MAX_WRONG_IN_ALL = 30


class PairingRefused(InputError):
    """A refusal the page acts on by its ``code`` (it opens the PIN entry)."""

    code = "pairing"


class NotPaired(PairingRefused):
    code = "not_paired"


class WrongPin(PairingRefused):
    code = "wrong_pin"


class TooManyTries(PairingRefused):
    code = "too_many_tries"


NOT_PAIRED = ("this tablet may only watch: to change the game, enter the PIN shown where "
              "dicecam serve runs")


def new_pin() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))


def normalise_pin(text: str) -> str:
    """The digits of a typed PIN: "482 913" and "482-913" are "482913"."""
    return "".join(ch for ch in text if ch not in " -\t")


def check_pin_format(pin: str) -> str:
    if len(pin) != PIN_DIGITS or not pin.isdigit() or not pin.isascii():
        raise InputError(APP("app.pin_digits", n=PIN_DIGITS))
    return pin


class Pairing:
    """The PIN, the tokens handed out, and which connections are paired now."""

    def __init__(self, pin: str | None = None, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.pin = check_pin_format(normalise_pin(pin)) if pin is not None else new_pin()
        self._clock = clock
        self._lock = threading.Lock()
        self._tokens: OrderedDict[str, None] = OrderedDict()
        self._paired: set[str] = set()
        self._wrong: deque[tuple[float, str, str]] = deque()  # (when, address, client)

    # -- connections ---------------------------------------------------------------------

    def connect(self, connection: str, token: object) -> bool:
        """A connection opened with ``token`` (anything a browser sent): paired if known."""
        with self._lock:
            known = isinstance(token, str) and 0 < len(token) <= TOKEN_MAX_LEN and any(
                hmac.compare_digest(token.encode(), t.encode()) for t in self._tokens)
            if known:
                self._paired.add(connection)
            return known

    def disconnect(self, connection: str) -> None:
        with self._lock:
            self._paired.discard(connection)

    def is_paired(self, connection: str) -> bool:
        with self._lock:
            return connection in self._paired

    def require(self, connection: str) -> None:
        if not self.is_paired(connection):
            raise NotPaired(NOT_PAIRED)

    # -- entering the PIN -----------------------------------------------------------------

    def pair(self, connection: str, typed: str, address: str,
             client: str | None = None) -> str:
        """Check a PIN typed by ``client`` (the page's id; None: the connection) at
        ``address``; pair the connection and give it a token."""
        who = client if client else f"connection:{connection}"
        now = self._clock()
        with self._lock:
            while self._wrong and now - self._wrong[0][0] > WINDOW_SECONDS:
                self._wrong.popleft()
            from_address = [c for _, a, c in self._wrong if a == address]
            if (sum(1 for c in from_address if c == who) >= MAX_WRONG_PER_CLIENT
                    or len(from_address) >= MAX_WRONG_PER_ADDRESS
                    or len(self._wrong) >= MAX_WRONG_IN_ALL):
                raise TooManyTries("too many wrong PINs: wait a minute, then type the PIN "
                                   "shown where dicecam serve runs")
            if not hmac.compare_digest(normalise_pin(typed).encode(), self.pin.encode()):
                self._wrong.append((now, address, who))
                raise WrongPin("that is not the PIN: type the PIN shown where dicecam serve "
                               "runs (a new one is made each time it starts)")
            token = secrets.token_urlsafe(24)
            self._tokens[token] = None
            while len(self._tokens) > MAX_TOKENS:
                self._tokens.popitem(last=False)
            self._paired.add(connection)
            return token
