"""The production server of ``dicecam serve`` and of the hub's workers: gunicorn's threaded
worker (gthread), with WebSockets through simple-websocket.

Flask-SocketIO's deployment guide names three production servers: eventlet, gevent, and
gunicorn's threaded worker with simple-websocket, "a particularly good solution for
applications that are CPU heavy or are otherwise incompatible with eventlet and gevent use
of green threads". A table's process reads the camera on a pump thread that may block in
OpenCV and runs ONNX inference for tens of milliseconds a frame; under green threads either
would stop every tablet's updates, and psycopg's C wait loop and redis-py would need the
standard library monkey-patched. With gthread the app keeps its plain threads, exactly as
under werkzeug's development server, which it replaces.

gunicorn's arbiter is the supervisor: it binds the port, forks the workers (the app is built
in each worker, after the fork, so no database connection, ONNX session or thread crosses
one), starts a worker again when one dies, and stops them on SIGTERM or Ctrl+C. A worker
dies with its arbiter (``PR_SET_PDEATHSIG``): SIGKILL of ``dicecam serve`` kills the
process that writes the journal too, as a power cut would.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gunicorn.app.base import BaseApplication

PR_SET_PDEATHSIG = 1  # linux/prctl.h
#: seconds a stopping worker waits for its open connections (a tablet's WebSocket stays
#: open until the process goes, so waiting longer only delays the stop)
GRACEFUL_SECONDS = 2
#: seconds a worker may go without telling the arbiter it is alive (its event loop tells it
#: every second; the app is built before the first time, which may load models)
SILENT_SECONDS = 120


@dataclass(frozen=True)
class Built:
    """What a worker serves: the WSGI app, and what to do when the worker stops."""

    app: Any
    close: Callable[[], None] | None = None


@dataclass(frozen=True)
class ServerOptions:
    host: str
    port: int
    workers: int = 1
    #: each open WebSocket holds a thread of its worker for its whole life, so this is
    #: the most tablets or phones one worker serves at once (plus a few requests)
    threads: int = 200
    #: several workers on one port: each worker binds it with SO_REUSEPORT, and the kernel
    #: spreads new connections over them (a WebSocket stays with the worker it reached)
    reuse_port: bool = False
    name: str = "dicecam"


def bind_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (elsewhere: nothing)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request: go now
        os._exit(1)


class _Gunicorn(BaseApplication):  # type: ignore[misc]
    def __init__(self, build: Callable[[], Built], options: ServerOptions,
                 on_worker: Callable[[int, int], None] | None) -> None:
        self._build = build
        self._options = options
        self._on_worker = on_worker
        self._built: Built | None = None
        super().__init__()

    def load_config(self) -> None:
        o = self._options
        settings: dict[str, Any] = {
            "bind": [bind_address(o.host, o.port)],
            "workers": o.workers,
            "worker_class": "gthread",
            "threads": o.threads,
            "worker_connections": max(1000, 2 * o.threads),
            "reuse_port": o.reuse_port,
            "graceful_timeout": GRACEFUL_SECONDS,
            "timeout": SILENT_SECONDS,
            "proc_name": o.name,
            "accesslog": None,  # no line per request
            "errorlog": "-",
            "loglevel": "warning",  # a worker killed or failing, not each boot
            "preload_app": False,  # the app is built in each worker, after the fork
            "post_fork": self._post_fork,
            "worker_exit": self._worker_exit,
        }
        for key, value in settings.items():
            self.cfg.set(key, value)

    def _post_fork(self, server: Any, worker: Any) -> None:
        die_with_parent()
        if self._on_worker is not None:
            self._on_worker(worker.age, os.getpid())

    def load(self) -> Any:
        self._built = self._build()
        return self._built.app

    def _worker_exit(self, server: Any, worker: Any) -> None:
        if not worker.booted or self._built is None:
            return  # a worker that failed to start exits with its own status
        try:
            if self._built.close is not None:
                self._built.close()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            # the pool's threads still hold the open WebSockets, and the interpreter would
            # wait for them at exit: the journal is closed, the connections go with us
            os._exit(0)


def serve(build: Callable[[], Built], options: ServerOptions, *,
          on_worker: Callable[[int, int], None] | None = None) -> int:
    """Serve what ``build`` makes (called in each worker) until SIGTERM or Ctrl+C; the exit
    status (3: a worker could not start, gunicorn's log says why)."""
    try:
        _Gunicorn(build, options, on_worker).run()
    except SystemExit as stop:
        code = stop.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0
