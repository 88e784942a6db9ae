"""The table's link to the tournament hub (``dicecam serve --hub URL``, with the table's key).

Every state the table publishes of the tournament's game (``registry.tournament_game``) is
turned into its settled results (its descriptor's ``tournament.reports_from_state``: the
settled passes and group tables of an evening); each new one goes into the outbox
in the table's journal file, and one sender thread posts them to the hub in order. A
result leaves the outbox only when the hub answered that it stored it (or already had it:
the same action id counts once there), so a hub that is down, a lost answer or a table
killed halfway loses nothing and counts nothing twice: the next attempt sends the same
action id again. The croupier's page is told "hub offline, N results waiting".

Every request is signed with the table's key (``signing``); the key's secret is never
shown: the status names the table by its public id (``7-T3``). A hub that says the table
belongs to another evening (409) is not asked again: the link stops and says why.
"""

from __future__ import annotations

import json
import logging
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from dicecam.errors import InputError
from dicecam.scorer.descriptor import TournamentEvening
from dicecam.scorer.registry import tournament_game
from dicecam.webapp import events
from dicecam.webapp.hub_link import signing
from dicecam.webapp.journal.choose import OutboxStore
from dicecam.webapp.journal.outbox import OutboxState

log = logging.getLogger(__name__)

Publish = Callable[[str, dict[str, Any]], None]
RETRY_FIRST = 0.5  # seconds before retrying an unreachable hub, doubling ...
RETRY_MOST = 5.0  # ... up to this
STATUS_EVERY = 2.0  # the status goes to the tablets this often (a new tablet learns it)
HTTP_TIMEOUT = 5.0
ASSIGNMENT_EVERY = 5.0  # seconds between asking the hub what this table plays (the final)
#: answers that say nothing about the result (401: the signature, say a clock more than
#: 5 minutes off; 429: too many requests): it stays waiting and is sent again later
AGAIN_LATER = (401, 429)


class HubLink:
    def __init__(self, hub_url: str, table_key: str, outbox: OutboxStore, publish: Publish, *,
                 retry_most: float = RETRY_MOST,
                 on_assignment: Callable[[dict[str, Any]], None] | None = None) -> None:
        if not hub_url.startswith(("http://", "https://")):
            raise InputError(f"--hub must be the hub's address, http://HOST:PORT, got "
                             f"{hub_url!r}")
        self._key = signing.parse_key(table_key)
        game = tournament_game()
        assert game.tournament is not None  # tournament_game() returns a game with one
        self._game: str = game.name
        self._evening: TournamentEvening = game.tournament
        self.hub_url = hub_url.rstrip("/")
        self.table = self._key.table  # public: the table's name in the evening, "T3"
        self.table_id = self._key.table_id  # public: "7-T3"
        self.outbox = outbox
        self._publish = publish
        self._retry_most = retry_most
        self._on_assignment = on_assignment
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.online: bool | None = None  # None: not tried yet
        self.assignment: dict[str, Any] | None = None
        self._asked = 0.0  # when the assignment was last asked for
        self.last_error: str | None = None
        self.stopped: str | None = None  # why the link stopped sending (another evening)

    # -- the table's side ------------------------------------------------------------------

    def wrap(self, publish: Publish) -> Publish:
        """``publish`` that also hands every state to the link."""

        def publish_and_queue(event: str, payload: dict[str, Any]) -> None:
            publish(event, payload)
            self.observe(event, payload)

        return publish_and_queue

    def observe(self, event: str, payload: Mapping[str, Any]) -> None:
        """Queue the settled results in a published state that are not queued yet."""
        if event != events.STATE or payload.get("game") != self._game:
            return
        game_id = payload.get("game_id")
        added = 0
        try:
            for report in self._evening.reports_from_state(self.table, f"game{game_id}",
                                                           payload["state"]):
                added += self.outbox.add(report.action_id, report.round_key,
                                         self._evening.report_to_json(report))
        except Exception:  # the game goes on: the next state (or a restart) queues it again
            log.exception("could not queue this table's results for the hub")
            return
        if added:
            self._wake.set()
            self._publish_status()

    def status(self) -> dict[str, Any]:
        counts = self.outbox.counts()
        return {"hub": self.hub_url, "table": self.table_id, "online": self.online,
                "waiting": counts[OutboxState.WAITING.value],
                "delivered": counts[OutboxState.DELIVERED.value],
                "refused": self.outbox.refusals(), "error": self.last_error,
                "assignment": self.assignment, "stopped": self.stopped}

    # -- the sender --------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="hub-link", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=HTTP_TIMEOUT + 1)

    def _run(self) -> None:
        pause = RETRY_FIRST
        last_status = 0.0
        while not self._stop.is_set():
            go_on = False  # True: try again at once (a result went, or the retry pause is over)
            try:
                go_on = self._step()
                pause = RETRY_FIRST
            except OSError as exc:  # unreachable, timed out, or the hub answered 5xx
                self._set_online(False, f"{exc}")
                self._stop.wait(pause)
                pause = min(pause * 2, self._retry_most)
                go_on = True
            except Exception:  # a bug must not stop the table: log it, try again later
                log.exception("the hub link failed")
                self._stop.wait(self._retry_most)
            if time.monotonic() - last_status > STATUS_EVERY:
                self._publish_status()
                last_status = time.monotonic()
            if not go_on:  # idle until a result is queued (or the status is due again)
                self._wake.wait(STATUS_EVERY)
                self._wake.clear()

    def _step(self) -> bool:
        """Join (once) and send the oldest waiting result; True to go on at once (one was
        sent, or the pause before sending it again is over)."""
        if self.stopped is not None:
            return False
        if self.assignment is None:
            answer, status = self._post("/api/join", {})
            if self._stops(answer, status):
                return False
            if status != 200:
                self._set_online(True, answer.get("error", f"join refused ({status})"))
                return False
            self._assign(answer)
            log.info("joined the hub as table %s: %s", answer.get("number"),
                     ", ".join(answer.get("group") or []))
            self._set_online(True, None)
        row = self.outbox.next_waiting()
        if row is None:
            if time.monotonic() - self._asked > ASSIGNMENT_EVERY:  # the final may be drawn
                answer, status = self._get(f"/api/tables/{self.table_id}")
                self._stops(answer, status)
                if status == 200 and self._assign(answer):
                    self._publish_status()
            return False
        answer, status = self._post("/api/results", row.report)
        if self._stops(answer, status):  # the result stays waiting, for the referee
            return False
        if status in AGAIN_LATER:  # the key, the clock or a flood, not this result's fault
            self._set_online(True, str(answer.get("error", f"refused ({status})")))
            self._publish_status()
            self._stop.wait(self._retry_most)
            return True  # try again now that the pause is over
        if status == 200:
            self.outbox.mark(row.id, OutboxState.DELIVERED)
            self._set_online(True, None)
            if answer.get("held"):  # stored; the organiser decides whether it counts
                log.warning("the hub keeps this result for the organiser: %s", answer["held"])
        else:  # the hub read it and says it is wrong: keep it with the reason, go on
            error = str(answer.get("error", f"refused ({status})"))
            self.outbox.mark(row.id, OutboxState.REFUSED, error)
            self._set_online(True, error)
        self._publish_status()
        return True

    def _stops(self, answer: Mapping[str, Any], status: int) -> bool:
        """True (and the link stops) when the hub says this table is of another evening."""
        if status != 409 or not answer.get("other_evening"):
            return False
        why = str(answer.get("error") or "the hub runs another evening")
        log.warning("the hub refuses this table: %s", why)
        # the error first: whoever sees the link stopped (another thread asking its
        # status) sees why, too
        self._set_online(True, why)
        self.stopped = why
        self._publish_status()
        return True

    def _assign(self, answer: Mapping[str, Any]) -> bool:
        """Keep what the hub says this table plays; True when it changed."""
        self._asked = time.monotonic()
        new = {k: answer.get(k) for k in ("evening", "number", "stage", "group", "spent")}
        changed, self.assignment = new != self.assignment, new
        if self._on_assignment is not None:  # every time: the table may have become free
            self._on_assignment(new)
        return changed

    def _get(self, path: str) -> tuple[dict[str, Any], int]:
        return self._call(urllib.request.Request(
            self.hub_url + path, method="GET",
            headers=signing.sign(self._key, "GET", path)))

    def _post(self, path: str, body: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
        data = json.dumps(body).encode()
        return self._call(urllib.request.Request(
            self.hub_url + path, data=data, method="POST",
            headers={"Content-Type": "application/json",
                     **signing.sign(self._key, "POST", path, data)}))

    def _call(self, request: urllib.request.Request) -> tuple[dict[str, Any], int]:
        try:
            with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
                return json.loads(response.read() or b"{}"), response.status
        except urllib.error.HTTPError as exc:
            if exc.code >= 500:
                raise OSError(f"the hub answered {exc.code}") from None
            try:
                return json.loads(exc.read() or b"{}"), exc.code
            except ValueError:
                return {"error": f"the hub answered {exc.code}"}, exc.code
        except ValueError as exc:  # an answer that is not JSON: not our hub (yet)
            raise OSError(f"the hub's answer is not JSON ({exc})") from None

    def _set_online(self, online: bool, error: str | None) -> None:
        changed = online != self.online
        self.online, self.last_error = online, error
        if changed:
            self._publish_status()

    def _publish_status(self) -> None:
        try:
            self._publish(events.HUB, self.status())
        except Exception:  # the page's status is a courtesy; the outbox is what matters
            log.exception("could not publish the hub status")
