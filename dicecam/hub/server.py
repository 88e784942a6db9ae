"""Running N hub processes behind one address.

Each worker binds the same port with SO_REUSEPORT and runs the threading server that
Flask-SocketIO uses (werkzeug, WebSocket through simple-websocket); the kernel spreads new
connections over the workers. A WebSocket stays on the worker that accepted it, so the
standings page connects with the WebSocket transport only and needs no sticky sessions;
long-polling would (see docs/hub.md). The supervisor restarts a worker that dies.
"""

from __future__ import annotations

import logging
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

from flask import Flask
from werkzeug.serving import make_server

RESTART_PAUSE = 0.5


def listening_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(256)
    return sock


def serve_worker(app: Flask, host: str, port: int) -> None:
    """Serve ``app`` on a port shared with the other workers until SIGTERM."""
    sock = listening_socket(host, port)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    server = make_server(host, port, app, threaded=True, fd=sock.fileno())
    signal.signal(signal.SIGTERM, lambda *_: _stop(server))
    server.serve_forever()


def _stop(server: Any) -> None:
    # shutdown() waits for serve_forever to return: call it off the signal's frame
    threading.Thread(target=server.shutdown, daemon=True).start()


def supervise(worker_argv: Sequence[str], count: int) -> int:
    """Start ``count`` workers (``python -m dicecam hub --worker ...``), restart any that
    dies, stop them all on SIGTERM or Ctrl+C."""
    command = [sys.executable, "-m", "dicecam", *worker_argv]
    workers: list[subprocess.Popen[bytes]] = [subprocess.Popen(command) for _ in range(count)]
    for number, worker in enumerate(workers, start=1):
        print(f"hub worker {number}: pid {worker.pid}", flush=True)
    stopping = False

    def stop(*_: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    try:
        while not stopping:
            time.sleep(0.2)
            for number, worker in enumerate(workers, start=1):
                if worker.poll() is not None and not stopping:
                    print(f"hub worker {number} (pid {worker.pid}) exited with status "
                          f"{worker.returncode}; restarting it", flush=True)
                    time.sleep(RESTART_PAUSE)
                    workers[number - 1] = subprocess.Popen(command)
                    print(f"hub worker {number}: pid {workers[number - 1].pid}", flush=True)
    except KeyboardInterrupt:
        pass
    for worker in workers:
        if worker.poll() is None:
            worker.terminate()
    for worker in workers:
        try:
            worker.wait(timeout=10)
        except subprocess.TimeoutExpired:
            worker.kill()
    return 0
