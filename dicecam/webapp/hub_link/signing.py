"""A table's key at the hub, and the signature on each request it sends.

``dicecam hub init`` gives each table one key, ``EVENING-TABLE-SECRET`` (``7-T3-K7QX...``):
the evening and the table are public (the table's name on every board), the secret is
printed once, by ``hub init``, and shown nowhere else. A request carries the public part and
an HMAC-SHA256, with the secret, of the method, the path, the time, a nonce and the body:

    X-Dicecam-Table: 7-T3
    X-Dicecam-Time: 1764151234.125
    X-Dicecam-Nonce: 9f2c41d07be35a18
    X-Dicecam-Signature: <hex>

The hub checks the signature with the key it stored, refuses a time more than
``CLOCK_WINDOW`` seconds from its own clock (an old post), and a signature it has seen
before (a replay); the table signs each attempt anew, so its retries are new requests.
"""

from __future__ import annotations

import getpass
import hashlib
import hmac
import os
import re
import secrets
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dicecam.errors import InputError

TABLE = "X-Dicecam-Table"
TIME = "X-Dicecam-Time"
NONCE = "X-Dicecam-Nonce"
SIGNATURE = "X-Dicecam-Signature"
CLOCK_WINDOW = 300.0  # seconds between the table's clock and the hub's, either way
SECRET_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: typed at a table
SECRET_LENGTH = 20  # 100 bits
# a table's key names its table (T3); the organiser's names ORG
_KEY = re.compile(rf"^(\d{{1,12}})-(T\d{{1,3}}|ORG)-([A-Z2-9]{{{SECRET_LENGTH}}})$")
_TABLE_ID = re.compile(r"^(\d{1,12})-(T\d{1,3}|ORG)$")


@dataclass(frozen=True)
class TableKey:
    evening: int
    table: str  # the public name, "T3"
    secret: str = field(repr=False)

    @property
    def table_id(self) -> str:
        """The public part, ``7-T3``: what a request names and a page may show."""
        return f"{self.evening}-{self.table}"

    def text(self) -> str:
        """The whole key, as ``hub init`` prints it once."""
        return f"{self.table_id}-{self.secret}"


def new_secret() -> str:
    return "".join(secrets.choice(SECRET_ALPHABET) for _ in range(SECRET_LENGTH))


def parse_key(text: str) -> TableKey:
    found = _KEY.match(text.strip().upper())
    if found is None:
        raise InputError("a table's key is the key `dicecam hub init` printed for this table "
                         f"(EVENING-TABLE-SECRET, e.g. 7-T3-{'K7QX' * 5}); this is not one")
    return TableKey(int(found.group(1)), found.group(2), found.group(3))


#: where a key comes from, never the command line (``ps`` and the shell's history show it)
TABLE_KEY_VARIABLE = "DICECAM_TABLE_KEY"
ORGANISER_KEY_VARIABLE = "DICECAM_ORGANISER_KEY"


def read_key(path: str | None, variable: str, what: str,
             ask: Callable[[str], str] | None = None) -> TableKey | None:
    """The key in the file at ``path`` (its first line), else in the environment variable
    ``variable``, else typed by hand when ``ask`` is given (hidden input: a terminal), else
    None. ``what`` names it in errors ("this table's key")."""
    if path is not None:
        try:
            text = Path(path).expanduser().read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise InputError(f"cannot read {what} from {path}: {exc}") from None
        where = path
    elif os.environ.get(variable, "").strip():
        text, where = os.environ[variable].strip(), f"${variable}"
    elif ask is not None:
        text, where = ask(f"{what[0].upper()}{what[1:]} (as `dicecam hub init` printed it; "
                          "not shown): ").strip(), "what was typed"
    else:
        return None
    try:
        return parse_key(text.splitlines()[0] if text else "")
    except InputError:
        raise InputError(f"{where} does not hold {what}: a key reads EVENING-TABLE-SECRET, "
                         f"e.g. 7-T3-{'K7QX' * 5}, as `dicecam hub init` printed it") from None


def command_key(path: str | None, variable: str, what: str, *, typed_flag: str | None,
                flag: str) -> TableKey | None:
    """``read_key`` for a command: asked for on the terminal when neither the file nor the
    variable gives it; a key typed after ``flag`` on the command line (``typed_flag``)
    is refused, saying where a key goes instead."""
    if typed_flag is not None:
        raise InputError(f"{flag} KEY is gone: a key on the command line is readable by "
                         "anyone on this computer (ps, the shell's history). Put it in a "
                         f"file ({flag}-file FILE) or in ${variable}, or leave both out and "
                         "type it when asked")
    return read_key(path, variable, what, getpass.getpass if sys.stdin.isatty() else None)


def hub_table_key(hub: str | None, path: str | None, typed: str | None) -> TableKey | None:
    """A table's key when it works with a hub (``--hub``; ``path``: ``--table-key-file``;
    ``typed``: a key after ``--table-key``, refused), else None: the environment's key is
    not asked for then, a table may play without its hub."""
    if not hub:
        if path or typed:
            raise InputError("a table's key goes with --hub URL: the hub it signs results "
                             "for")
        return None
    key = command_key(path, TABLE_KEY_VARIABLE, "this table's key at the hub",
                      typed_flag=typed, flag="--table-key")
    if key is None:
        raise InputError("--hub needs this table's key, as `dicecam hub init` printed it: "
                         f"--table-key-file FILE, or ${TABLE_KEY_VARIABLE}, or run this in "
                         "a terminal and type it when asked")
    return key


def parse_table_id(text: str) -> tuple[int, str]:
    """(evening, table) from ``7-T3``; InputError for anything else."""
    found = _TABLE_ID.match(text.strip().upper())
    if found is None:
        raise InputError(f"{TABLE} must name a table as EVENING-TABLE (7-T3)")
    return int(found.group(1)), found.group(2)


def signature(secret: str, method: str, path: str, stamp: str, nonce: str,
              body: bytes) -> str:
    message = f"{method.upper()}\n{path}\n{stamp}\n{nonce}\n".encode() + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def sign(key: TableKey, method: str, path: str, body: bytes = b"",
         now: float | None = None) -> dict[str, str]:
    """The headers that authenticate this request as the key's table."""
    stamp = f"{time.time() if now is None else now:.3f}"
    nonce = secrets.token_hex(8)
    return {TABLE: key.table_id, TIME: stamp, NONCE: nonce,
            SIGNATURE: signature(key.secret, method, path, stamp, nonce, body)}


@dataclass(frozen=True)
class Signed:
    """What a request's headers claim, before it is verified."""

    evening: int
    table: str
    stamp: str
    nonce: str
    signature: str


def read_headers(headers: Mapping[str, str]) -> Signed:
    """The signed claim in these headers; InputError naming what is missing."""
    missing = [h for h in (TABLE, TIME, NONCE, SIGNATURE) if not headers.get(h)]
    if missing:
        raise InputError(f"sign the request with the table's key: {', '.join(missing)} "
                         "missing (dicecam serve --hub URL with the table's key does)")
    evening, table = parse_table_id(headers[TABLE])
    nonce, mac = headers[NONCE].strip(), headers[SIGNATURE].strip().lower()
    if len(nonce) > 64 or not re.fullmatch(r"[0-9a-f]{64}", mac):
        raise InputError(f"{SIGNATURE} must be 64 hex digits and {NONCE} at most 64 "
                         "characters")
    return Signed(evening, table, headers[TIME].strip(), nonce, mac)


def verify(claim: Signed, secret: str, method: str, path: str, body: bytes,
           now: float | None = None, window: float = CLOCK_WINDOW) -> None:
    """Raise InputError unless the claim is signed with ``secret`` within the window."""
    try:
        stamp = float(claim.stamp)
    except ValueError:
        raise InputError(f"{TIME} must be the Unix time in seconds") from None
    want = signature(secret, method, path, claim.stamp, claim.nonce, body)
    if not hmac.compare_digest(want, claim.signature):
        raise InputError(f"the signature does not match table {claim.evening}-{claim.table}'s "
                         "key: use the key `dicecam hub init` printed for this table")
    skew = (time.time() if now is None else now) - stamp
    if not abs(skew) <= window:
        raise InputError(f"the request was signed {abs(skew):.0f} s "
                         f"{'before' if skew > 0 else 'after'} the hub's time (at most "
                         f"{window:.0f} s): an old request, or a clock to set right")
