"""A table node without a camera, for the hub's tests and benches: it publishes a played
V6 evening's states on a timeline through the real hub link and outbox (the code
``dicecam serve --hub`` runs), so it can be killed with SIGKILL and started again.

``python -m dicecam.tools.table_node --hub URL --key KEY --outbox FILE --states FILE
--start-at EPOCH --delay S``: state i is published at start-at + i * delay; a node started
again publishes at once the latest state due (as a table replays its journal), then goes
on. It exits 0 once every result is delivered, 1 when one was refused.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from dicecam.webapp import events
from dicecam.webapp.hub_link.link import HubLink
from dicecam.webapp.journal.outbox import Outbox

SETTLE_SECONDS = 120.0  # most time to wait for the hub after the last state


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hub", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--outbox", required=True)
    parser.add_argument("--states", required=True)
    parser.add_argument("--game-id", type=int, default=1)
    parser.add_argument("--start-at", type=float, required=True)
    parser.add_argument("--delay", type=float, default=0.05)
    args = parser.parse_args(argv)
    with open(args.states, encoding="utf-8") as file:
        states = json.load(file)
    link = HubLink(args.hub, args.key, Outbox(args.outbox), lambda *_: None, retry_most=1.0)
    link.start()
    shown = -1
    while shown < len(states) - 1:
        due = min(len(states) - 1, int((time.time() - args.start_at) / args.delay))
        if due > shown:
            shown = due
            link.observe(events.STATE, {"game": "v6", "game_id": args.game_id,
                                        "state": states[shown]})
        time.sleep(max(0.0, args.start_at + (shown + 1) * args.delay - time.time()))
    deadline = time.monotonic() + SETTLE_SECONDS
    while time.monotonic() < deadline:
        status = link.status()
        if status["waiting"] == 0:
            link.stop()
            return 1 if status["refused"] else 0
        time.sleep(0.05)
    return 2


if __name__ == "__main__":
    sys.exit(main())
