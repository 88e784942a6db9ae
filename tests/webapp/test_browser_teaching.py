"""A table learns its dice in a real browser: a table of dice unlike the training renders
(marbled red with yellow pips, which the shipped reader asks about often), read through the
real table reader; the players answer the asked dice one tap each and confirm the rolls,
the table learns beside the live view, and the share of dice it asks about falls.

The camera is a double of the demo: drawn photos of six dice (``tests/support/
drawn_dice.py``), each held still until the test throws the next, with a moment of motion
between them, through ``TableCamera`` and the shipped models."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dicecam.teach.store import TableStore
from dicecam.webapp.camera.source import TableCamera
from tests.support.browsers import BROWSER_MARKS, wait
from tests.support.drawn_dice import CLOTH, drawn_photo
from tests.support.waiting import WAIT_SECONDS
from tests.webapp.test_browser import css, new_game, open_on_live_frame, start_server, tap

pytestmark = [*BROWSER_MARKS, pytest.mark.slow]

webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (the test extra)")

TABLE = "marbled"
#: a frame every this many seconds (the settle clock runs on the frame count, 30 a second)
FRAME_SECONDS = 1 / 20


class MarbledTable:
    """Frames of drawn photos, each still until ``next_roll``; motion between them."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.photo, self.labels = drawn_photo(self.rng)
        self._next = threading.Event()

    def next_roll(self) -> None:
        self._next.set()

    def frames(self, source: str, dice_set: str, on_error: Any, **_: Any
               ) -> Iterator[np.ndarray]:
        while True:
            yield self.photo
            time.sleep(FRAME_SECONDS)
            if self._next.is_set():
                self._next.clear()
                for k in range(4):  # a hand throws: the cloth, then the dice lying still
                    moving = np.full_like(self.photo, CLOTH)
                    moving[:, k * 40:k * 40 + 200] = 200
                    yield moving
                    time.sleep(FRAME_SECONDS)
                self.photo, self.labels = drawn_photo(self.rng)


def page_roll(browser: Any) -> dict[str, Any] | None:
    return browser.execute_script("return DicecamPage.app.roll")


def truth_of(die: dict[str, Any], labels: list[tuple]) -> tuple | None:
    near = [lab for lab in labels
            if abs(lab[1] - die["x"]) < lab[3] / 2 and abs(lab[2] - die["y"]) < lab[4] / 2]
    return near[0] if near else None


def tap_frame_point(browser: Any, x: float, y: float, width: float = 640) -> None:
    canvas = css(browser, "#overlay")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
    scale = canvas.size["width"] / width
    webdriver.ActionChains(browser).move_to_element_with_offset(
        canvas, int(x * scale - canvas.size["width"] / 2),
        int(y * scale - canvas.size["height"] / 2)).click().perform()


def answer_roll(browser: Any, labels: list[tuple]) -> None:
    """As a player: the asked dice one value tap each, a die read wrong tapped right, a box
    that is no die struck, a missed die added; then *Dice are right*."""
    roll_id = page_roll(browser)["roll_id"]
    if browser.execute_script("return !document.getElementById('check-asked').hidden"):
        tap(browser, "#check-asked")
        while True:  # the dialog shows each asked die in turn
            wait(browser, lambda b: b.execute_script(
                "return document.getElementById('die-dialog').open"), timeout=5)
            index = browser.execute_script("return DicecamPage.app.selectedDie")
            die = page_roll(browser)["dice"][index]
            truth = truth_of(die, labels)
            left = len([d for d in page_roll(browser)["dice"] if d["needs_check"]])
            if truth is None:
                tap(browser, "#die-not-a-die")
            else:
                tap(browser, f'#die-values [data-value="{truth[0]}"]')
            wait(browser, lambda b, n=left: len([
                d for d in page_roll(b)["dice"] if d["needs_check"]]) < n)
            if not any(d["needs_check"] for d in page_roll(browser)["dice"]):
                break
    for index, die in enumerate(page_roll(browser)["dice"]):
        truth = truth_of(die, labels)
        if truth is not None and truth[0] != die["value"]:  # read wrong, surely
            tap_frame_point(browser, die["x"], die["y"])
            tap(browser, f'#die-values [data-value="{truth[0]}"]')
            wait(browser, lambda b, i=index, v=truth[0]: page_roll(b)["dice"][i]["value"] == v)
    for label in labels:
        if not any(truth_of(d, [label]) for d in page_roll(browser)["dice"]):
            tap_frame_point(browser, label[1], label[2])  # a die here
            tap(browser, f'#die-values [data-value="{label[0]}"]')
            wait(browser, lambda b, lab=label: any(truth_of(d, [lab])
                                                   for d in page_roll(b)["dice"]))
    tap(browser, "#confirm-roll")
    wait(browser, lambda b: (r := page_roll(b))["roll_id"] == roll_id
         and all(d["corrected"] for d in r["dice"]))


def test_a_table_of_unseen_dice_learns_as_the_players_confirm_and_asks_less(
        browser: Any, tmp_path: Path) -> None:
    table = MarbledTable(seed=31)
    camera = TableCamera("marbled", frames=table.frames, table=TABLE, realtime=False)
    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"), "OUTPUTS": camera,
                            "TEACH_EVERY": 24, "TEACH_STEPS": 20})
    try:
        open_on_live_frame(browser, running)
        wait(browser, lambda b: "dicecam learns your dice" in css(b, "#teach-status").text)
        store = TableStore(TABLE)
        last = None
        for _ in range(40):
            wait(browser, lambda b, seen=last: (r := page_roll(b)) is not None
                 and r["roll_id"] != seen, timeout=2 * WAIT_SECONDS)
            answer_roll(browser, table.labels)
            last = page_roll(browser)["roll_id"]
            # the roll is shown before its dice are kept: the page has the figures once
            # they match the store's
            shown = wait(browser, lambda b: (t := b.execute_script(
                "return DicecamPage.app.teach")) and t["taught"] == store.status()["taught"]
                and t)
            if shown["taught"] >= 48 and shown["version"] is None:
                # the first run (from 48 dice, two rolls held back to judge it) learns at
                # the lowest priority: on a busy machine it may take a while
                shown = wait(browser, lambda b: (t := b.execute_script(
                    "return DicecamPage.app.teach")) and t["version"] is not None and t,
                    timeout=6 * WAIT_SECONDS)
            read_by_it = [d for d in store.dice() if d.how in ("confirmed", "corrected")
                          and d.reader_version is not None
                          and d.reader_version == shown["version"]]
            if shown["asked_now"] is not None and len(read_by_it) >= 12:
                break  # two rolls read by the table's own reader: a share worth comparing
            table.next_roll()
        assert shown["version"] is not None, shown
        assert shown["asked_now"] < shown["asked_shipped"], shown
        text = css(browser, "#teach-status").text
        # in dice a family counts, over every die read, beside the shipped reader's
        assert text.startswith(f"Table “{TABLE}”:"), text
        assert "taught" in text and "asked about" in text and "own version" in text, text
        assert "(with the shipped reader:" in text, text
    finally:
        running.stop()


def test_the_layout_shows_six_rows_and_names_its_colour_columns(browser: Any,
                                                                 tmp_path: Path) -> None:
    table = MarbledTable(seed=5)
    camera = TableCamera("marbled", frames=table.frames, table=TABLE, realtime=False)
    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"), "OUTPUTS": camera})
    try:
        open_on_live_frame(browser, running)
        new_game(browser, "diceparty", ["Ann", "Bo"])
        tap(browser, "#teach-layout-open")
        css(browser, "#layout-dialog[open]")
        rows = browser.execute_script(
            "return document.querySelectorAll('#layout-diagram svg text').length")
        assert rows == 6
        colours = browser.execute_script("return DicecamPage.app.view.colours")
        named = css(browser, "#layout-columns").text
        assert named.startswith("Columns, left to right:"), named
        assert all(colour in named for colour in colours[:4]), (named, colours)
    finally:
        running.stop()
