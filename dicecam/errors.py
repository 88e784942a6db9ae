"""Errors that carry a sentence meant for the user.

Every layer raises these for bad input; the command line prints the message on one line
and exits with status 2, the web app sends it back as an error reply. Messages say what
was wrong and, where it helps, what to do next.
"""

from __future__ import annotations


class DicecamError(Exception):
    """Base class for errors whose message is shown to a user as it is."""


class InputError(DicecamError, ValueError):
    """The input (JSON, an event, a file, a setting) is malformed or breaks a rule."""


class RuleError(InputError):
    """A well-formed action that the game's rules do not allow in the current state."""
