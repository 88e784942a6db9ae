"""Who may change the score: tablets paired with the PIN that ``dicecam serve`` prints.

Anyone on the same Wi-Fi can open the page and watch; changing anything needs pairing.
The server makes a short PIN at start (or takes ``PAIRING_PIN`` from the app's config, which
is how tests know it) and shows it only where it runs. A tablet that sends the right PIN gets
a token, which the page keeps and presents when it connects again; each Socket.IO
connection that presented a good token (or the PIN) is paired until it disconnects.

Wrong PINs are limited per device and in all, so that ten thousand guesses take days, not
minutes. Tokens live as long as the server process: after a restart the server prints a new
PIN and tablets pair again.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from dicecam.errors import InputError

PIN_DIGITS = 6
TOKEN_MAX_LEN = 100
#: tokens remembered at once; the oldest is forgotten first (a tablet then pairs again)
MAX_TOKENS = 500
WINDOW_SECONDS = 60.0
#: wrong PINs allowed from one device within WINDOW_SECONDS
MAX_WRONG_PER_DEVICE = 5
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
        raise InputError(f"a PIN is {PIN_DIGITS} digits, got {pin!r}")
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
        self._wrong: deque[tuple[float, str]] = deque()

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

    def pair(self, connection: str, typed: str, device: str) -> str:
        """Check a typed PIN from ``device`` (its address); pair the connection, give a token."""
        now = self._clock()
        with self._lock:
            while self._wrong and now - self._wrong[0][0] > WINDOW_SECONDS:
                self._wrong.popleft()
            from_device = sum(1 for _, who in self._wrong if who == device)
            if from_device >= MAX_WRONG_PER_DEVICE or len(self._wrong) >= MAX_WRONG_IN_ALL:
                raise TooManyTries("too many wrong PINs: wait a minute, then type the PIN "
                                   "shown where dicecam serve runs")
            if not hmac.compare_digest(normalise_pin(typed).encode(), self.pin.encode()):
                self._wrong.append((now, device))
                raise WrongPin("that is not the PIN: type the PIN shown where dicecam serve "
                               "runs (a new one is made each time it starts)")
            token = secrets.token_urlsafe(24)
            self._tokens[token] = None
            while len(self._tokens) > MAX_TOKENS:
                self._tokens.popitem(last=False)
            self._paired.add(connection)
            return token
