"""Errors that carry a sentence meant for the user.

Every layer raises these for bad input; the command line prints the message on one line
and exits with status 2, the web app sends it back as an error reply. Messages say what
was wrong and, where it helps, what to do next.
"""

from __future__ import annotations

from typing import Any

from dicecam.messages import Message


class DicecamError(Exception):
    """Base class for errors whose message is shown to a user as it is.

    Raised with a ``Message`` (the rules engines do), its English text is the error's text
    and ``message`` keeps the id and parameters, so a tablet words it in its language."""

    def __init__(self, *args: Any) -> None:
        self.message: Message | None = args[0] if len(args) == 1 and isinstance(
            args[0], Message) else None
        super().__init__(*((str(self.message),) if self.message is not None else args))


class InputError(DicecamError, ValueError):
    """The input (JSON, an event, a file, a setting) is malformed or breaks a rule."""


class RuleError(InputError):
    """A well-formed action that the game's rules do not allow in the current state."""
