"""Where the hub's services are: written by ``dicecam hub init`` to ``hub.json`` in the
data folder, read by ``dicecam hub`` (so the second command needs no options)."""

from __future__ import annotations

import json
import socket
from dataclasses import asdict, dataclass
from pathlib import Path

from dicecam.errors import InputError
from dicecam.paths import dicecam_home

DEFAULT_DB = "postgresql:///dicecam"  # the local server's Unix socket, as this user
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
DEFAULT_PORT = 8770
DEFAULT_PROCESSES = 2


@dataclass(frozen=True)
class HubConfig:
    db: str = DEFAULT_DB
    redis: str | None = DEFAULT_REDIS
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT


def config_path() -> Path:
    return dicecam_home() / "hub.json"


def save(config: HubConfig) -> Path:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(asdict(config), indent=2) + "\n", encoding="utf-8")
    return path


def load() -> HubConfig:
    path = config_path()
    if not path.is_file():
        return HubConfig()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return HubConfig(**data)
    except (ValueError, TypeError) as exc:
        raise InputError(f"{path} is damaged ({exc}); run `dicecam hub init` again or "
                         "delete it") from None


def lan_address() -> str | None:
    """This computer's address on the local network (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # UDP connect only picks the outgoing interface
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def reachable_host(host: str) -> str:
    """The host to print in an address others open: this computer's LAN address when
    ``host`` is every interface (0.0.0.0, ::, empty), else ``host`` itself (a hub or table
    bound to 127.0.0.1 answers on nothing else)."""
    if host in ("0.0.0.0", "::", ""):
        return lan_address() or "localhost"
    return f"[{host}]" if ":" in host else host
