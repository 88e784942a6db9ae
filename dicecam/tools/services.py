"""Private PostgreSQL and Redis instances for tests and benchmarks: a temporary data folder,
a free port, torn down after. ``missing()`` says which server binaries are not installed
(Debian's ``postgresql`` and ``redis-server``), so a test can skip with the reason."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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


def _wait_ready(admin_url: str) -> None:
    """Until the server takes connections (after a crash it first replays its WAL)."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            psycopg.connect(admin_url, connect_timeout=2).close()
            return
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


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


@dataclass
class PostgresCluster:
    """A private cluster that can be killed and started again on its data (a test of a
    database restart)."""

    bin_dir: Path
    folder: Path
    port: int
    prefix: list[str]
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"postgresql://dicecam@127.0.0.1:{self.port}/dicecam"

    def start(self) -> None:
        with open(self.folder / "server.log", "ab") as log:
            self.process = subprocess.Popen(
                self.prefix + [str(self.bin_dir / "postgres"), "-D", str(self.folder / "data"),
                               "-p", str(self.port), "-h", "127.0.0.1", "-k", str(self.folder),
                               # fsync off: a test's data may go with the machine, but a
                               # commit is written before it answers, so a killed server
                               # (kill()) starts again with every commit
                               "-c", "fsync=off", "-c", "full_page_writes=off",
                               "-c", "max_connections=200"],
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        _wait_port(self.port, self.process, "postgres")
        _wait_ready(f"postgresql://dicecam@127.0.0.1:{self.port}/postgres")

    def kill(self) -> None:
        """SIGKILL of the server and every backend, as a crash of the machine would (a
        backend outlives a killed postmaster and would keep serving its connection)."""
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None
            time.sleep(0.2)  # the backends are gone before the next start
            # a killed postmaster whose zombie nobody reaps (a container's init may not)
            # still "holds" its lock files; every process of this cluster is dead
            for stale in (self.folder / "data" / "postmaster.pid",
                          self.folder / f".s.PGSQL.{self.port}.lock",
                          self.folder / f".s.PGSQL.{self.port}"):
                stale.unlink(missing_ok=True)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()  # SIGTERM: PostgreSQL's smart shutdown
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


@contextmanager
def postgres_cluster(port: int | None = None) -> Iterator[PostgresCluster]:
    """A private PostgreSQL cluster on 127.0.0.1 (fsync off: a test's data is thrown away)
    with a database ``dicecam``."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise RuntimeError("PostgreSQL is not installed (apt-get install postgresql)")
    prefix = _as_postgres_user()
    folder = Path(tempfile.mkdtemp(prefix="dicecam-pg-"))
    cluster = PostgresCluster(bin_dir, folder, port or free_port(), prefix)
    try:
        if prefix:
            shutil.chown(folder, "postgres")
        subprocess.run(prefix + [str(bin_dir / "initdb"), "-D", str(folder / "data"),
                                 "-U", "dicecam", "--auth=trust", "-E", "UTF8", "--no-sync"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        cluster.start()
        try:
            _create_database(f"postgresql://dicecam@127.0.0.1:{cluster.port}/postgres",
                             "dicecam")
            yield cluster
        finally:
            cluster.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def postgres_server(port: int | None = None) -> Iterator[str]:
    """A private PostgreSQL cluster (``postgres_cluster``); yields its database's URL."""
    with postgres_cluster(port) as cluster:
        yield cluster.url
