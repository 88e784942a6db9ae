"""Private PostgreSQL and Redis instances for tests and benchmarks: a temporary data folder,
a free port, torn down after. ``missing()`` says which server binaries are not installed
(Debian's ``postgresql`` and ``redis-server``), so a test can skip with the reason."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

POSTGRES_BIN_GLOB = "/usr/lib/postgresql/*/bin"
START_SECONDS = 30.0


def postgres_bin() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob(POSTGRES_BIN_GLOB), key=lambda p: int(Path(p).parent.name))
    return Path(versions[-1]) if versions else None


def missing() -> list[str]:
    """The server programs that are not installed, with the package to install."""
    out = []
    if postgres_bin() is None:
        out.append("PostgreSQL (apt-get install postgresql)")
    if shutil.which("redis-server") is None:
        out.append("redis-server (apt-get install redis-server)")
    return out


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_port(port: int, process: subprocess.Popen[bytes], what: str) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with status {process.returncode} at start")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on port {port} within {START_SECONDS:.0f} s")


@contextmanager
def redis_server(port: int | None = None) -> Iterator[str]:
    """A private redis-server on 127.0.0.1 (no persistence); yields its URL."""
    port = port or free_port()
    with tempfile.TemporaryDirectory(prefix="dicecam-redis-") as folder:
        process = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", folder], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        try:
            _wait_port(port, process, "redis-server")
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)


def _create_database(admin_url: str, name: str) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:  # the port opens a moment before the server takes connections
        try:
            with psycopg.connect(admin_url, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _as_postgres_user() -> list[str]:
    """initdb refuses to run as root: as root (CI), run the server as the postgres user."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise RuntimeError("running as root needs the postgres system user (the postgresql "
                           "package creates it)") from None
    return ["runuser", "-u", "postgres", "--"]


@contextmanager
def postgres_server(port: int | None = None) -> Iterator[str]:
    """A private PostgreSQL cluster on 127.0.0.1 (fsync off: a test's data is thrown away);
    yields the URL of its database ``dicecam``."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    port = port or free_port()
    prefix = _as_postgres_user()
    folder = tempfile.mkdtemp(prefix="dicecam-pg-")
    data = Path(folder) / "data"
    try:
        if prefix:
            shutil.chown(folder, "postgres")
        subprocess.run(prefix + [str(bin_dir / "initdb"), "-D", str(data), "-U", "dicecam",
                                 "--auth=trust", "-E", "UTF8", "--no-sync"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        log = open(Path(folder) / "server.log", "wb")  # noqa: SIM115 - closed below
        process = subprocess.Popen(
            prefix + [str(bin_dir / "postgres"), "-D", str(data), "-p", str(port),
                      "-h", "127.0.0.1", "-k", folder, "-c", "fsync=off",
                      "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
                      "-c", "max_connections=200"], stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_port(port, process, "postgres")
            _create_database(f"postgresql://dicecam@127.0.0.1:{port}/postgres", "dicecam")
            yield f"postgresql://dicecam@127.0.0.1:{port}/dicecam"
        finally:
            process.terminate()  # SIGTERM: PostgreSQL's smart shutdown
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
