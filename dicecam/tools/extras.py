"""The optional extras some tools need beyond the runtime install, and the one line that
says how to get them. A command's ``--help`` must work on the plain install, so a tool
imports an extra's modules only when it runs, and says first what is missing."""

from __future__ import annotations

import importlib.util

from dicecam.errors import InputError

#: extra -> (module to import, package that brings it)
EXTRAS: dict[str, tuple[tuple[str, str], ...]] = {
    # the tablets and phones of the load benches talk Socket.IO over websocket-client
    "test": (("websocket", "websocket-client"),),
    "train": (("torch", "torch"), ("onnx", "onnx")),
}


def missing_packages(extra: str) -> list[str]:
    """The packages of ``extra`` that are not installed."""
    return [package for module, package in EXTRAS[extra]
            if importlib.util.find_spec(module) is None]


def install_hint(extra: str) -> str:
    return f"install the {extra} extra: .venv/bin/pip install -e '.[{extra}]'"


def require_extra(extra: str, what: str) -> None:
    """Raise a clear :class:`InputError` when ``extra``'s packages are not installed."""
    absent = missing_packages(extra)
    if absent:
        raise InputError(f"{what} needs {' and '.join(absent)}: {install_hint(extra)}")
