"""``dicecam bench evening``: a whole simulated V6 evening through the hub, with a hub
worker and a table killed and the hub away (the code is in ``bench/hub/load.py``)."""

from __future__ import annotations

from dicecam.tools.bench.hub.load import EVENING_HELP as HELP
from dicecam.tools.bench.hub.load import add_evening_arguments as add_arguments
from dicecam.tools.bench.hub.load import run_evening_command as run

__all__ = ["HELP", "add_arguments", "run"]
