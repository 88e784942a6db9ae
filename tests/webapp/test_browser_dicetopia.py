"""Dicetopia scored from the demo camera in a real browser (issue 29, points 1 and 7).

The demo lays out a two-player endgame table (the city map with dice and agents, a
faction board per player with its six dice); the players mark the boards once on the
picture (a rectangle around the city map, one around each faction board), the camera's
roll is read through the full table reader (the shipped models) and every die is placed
on its district or board. What the reader asks is answered as a player would, from what
the demo drew (a die's value, or *Not a die* for an agent taken for one); agents and
missions are entered by hand. The score on the page must be the engine's score of the
table the demo drew. The mission cards show their rule text without hovering, in English
and in German.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dicecam.scorer.dicetopia.endgame import game_zone
from dicecam.scorer.registry import get_game
from dicecam.vision.sources.demo import DemoSource
from dicecam.webapp.api.app import services
from dicecam.webapp.session.demo_table import demo_layout
from tests.support.browsers import BROWSER_MARKS, wait
from tests.support.waiting import WAIT_SECONDS

pytestmark = BROWSER_MARKS

webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (the test extra)")
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from tests.webapp.test_browser import (  # noqa: E402
    _visible,
    css,
    drag,
    new_game,
    open_on_live_frame,
    start_server,
    tap,
    text_of,
    wait_text,
)

PLAYERS = ["Ann", "Bo"]


def _roll(browser: Any) -> dict[str, Any]:
    return browser.execute_script("return DicecamPage.app.roll") or {}


def _truth_of(roll_die: dict[str, Any], truth: list[Any]) -> Any:
    """The die the demo drew under a box the camera read, or None (no die there)."""
    for die in truth:
        if abs(die.cx - roll_die["x"]) < die.w / 2 and abs(die.cy - roll_die["y"]) < die.h / 2:
            return die
    return None


def _asked(roll: dict[str, Any]) -> int:
    return 0 if roll.get("status") == "applied" else sum(
        1 for d in roll.get("dice", []) if d["needs_check"])


def _answer_asked(browser: Any, truth: list[Any]) -> int:
    """Answer every die the reader asks about, as a player looking at the table: its value
    and colour, or *Not a die*. Returns how many were asked."""
    answered = 0
    for _ in range(40):
        left = _asked(_roll(browser))
        if not left:
            return answered
        # the next asked die opens by itself once one is answered; else the panel's button
        if not browser.find_element(By.ID, "die-dialog").get_attribute("open"):
            tap(browser, "#check-asked")
        css(browser, "#die-dialog[open]")
        index = browser.execute_script("return DicecamPage.app.selectedDie")
        die = _truth_of(_roll(browser)["dice"][index], truth)
        if die is None:
            tap(browser, "#die-not-a-die")
        else:
            tap(browser, f'#die-colours [data-colour="{die.colour}"]')
            tap(browser, f'#die-values [data-value="{die.value}"]')
        wait(browser, lambda b, n=left: _asked(_roll(b)) < n)
        answered += 1
    raise AssertionError("the asked dice never ran out")


def _zone_dice(truth: list[Any]) -> dict[str, Counter]:
    out: dict[str, Counter] = {}
    for die in truth:
        out.setdefault(game_zone(die.zone), Counter())[(die.colour, die.value)] += 1
    return out


def test_a_dicetopia_endgame_read_from_the_demo_camera_and_scored(browser: Any,
                                                                   tmp_path: Path) -> None:
    from dicecam.webapp.camera.source import TableCamera

    game = get_game("dicetopia")
    config = {"players": [{"name": name} for name in PLAYERS]}
    due = game.table_due(game.codec.new_game(config))
    laid = DemoSource(game.dice_set).laid_table(demo_layout(due))
    truth = list(laid.dice)
    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"),
                            "OUTPUTS": TableCamera("demo")})
    try:
        open_on_live_frame(browser, running)
        new_game(browser, "dicetopia", PLAYERS)
        # the laid-out table settles: its dice lie on no marked board yet
        wait_text(browser, "#roll-text", "none on a marked board", 3 * WAIT_SECONDS)
        wait_text(browser, "#zone-offer-text", "mark the city map and each faction board")
        assert not browser.find_elements(By.CSS_SELECTOR, "#roll-zones button")
        tap(browser, "#draw-zones")
        wait_text(browser, "#zone-draw-text", "City map")
        for board in laid.boards:  # the city map first, then Ann's and Bo's boards
            xs = [x for x, _ in board.corners]
            ys = [y for _, y in board.corners]
            drag(browser, (min(xs) - 3, min(ys) - 3), (max(xs) + 3, max(ys) + 3), 960)
        wait_text(browser, "#zone-draw-text", "Every board is marked")
        tap(browser, "#zones-save")
        wait_text(browser, "#zone-offer-text", "Boards marked")
        # every die read where it lies: on a board or in a district, none left outside
        wait(browser, lambda b: (r := _roll(b)).get("dice") and all(
            d["zone"] for d in r["dice"]), WAIT_SECONDS)
        asked = _answer_asked(browser, truth)
        wait(browser, lambda b: _roll(b).get("status") == "applied", WAIT_SECONDS)
        summary = text_of(browser, "#roll-text")
        assert "6 on Ann's board" in summary and "6 on Bo's board" in summary, summary
        assert "in the districts" in summary
        # each zone holds what the demo laid there; a die the reader never saw is entered
        # on the zone's pad, as a player would (none with the shipped models)
        state = browser.execute_script("return DicecamPage.app.view.state")
        expected = _zone_dice(truth)
        for zone in set(expected) | set(state["table"]["zones"]):
            seen = Counter((d["colour"], d["value"]) for d in state["table"]["zones"].get(zone, []))
            assert seen == expected.get(zone, Counter()), (zone, seen, expected.get(zone))
        # the agents, which the camera does not read: + per agent as it lies
        agents: dict[str, Counter] = {}
        for zone in due.zones:
            for owner in zone.markers:
                agents.setdefault(zone.zone, Counter())[PLAYERS[owner]] += 1
        for district, counts in agents.items():
            for player, n in counts.items():
                for k in range(n):
                    row = (f'[data-district="{district}"] .agent-row[data-player="{player}"]')
                    tap(browser, f"{row} [data-agents=\"plus\"]")
                    wait(browser, lambda b, r=row, k=k: b.find_element(
                        By.CSS_SELECTOR, f"{r} b").text == str(k + 1))
        # the missions: each card's rule is written under its name, no hover needed
        catalogue = game.catalogue()["missions"]
        picker = css(browser, '.mission-picker[data-player="Ann"]')
        first = picker.find_elements(By.CSS_SELECTOR, "button[data-mission]")[0]
        rule = first.find_element(By.CSS_SELECTOR, ".mission-rule")
        assert rule.is_displayed() and rule.size["height"] > 0
        assert rule.text == catalogue[first.get_attribute("data-mission")]["rules"]["en"]
        assert not first.get_attribute("title")
        chosen = {}
        for k, player in enumerate(PLAYERS):
            options = browser.find_elements(
                By.CSS_SELECTOR, f'.mission-picker[data-player="{player}"] button[data-mission]')
            picks = [o.get_attribute("data-mission") for o in options
                     if o.get_attribute("data-mission") not in ("risiko", "trittbrettgaenger")
                     ][2 * k:2 * k + 2]
            for mission in picks:
                tap(browser, f'.mission-picker[data-player="{player}"] '
                             f'button[data-mission="{mission}"]')
            tap(browser, f'.mission-picker[data-player="{player}"] [data-action="set_missions"]')
            chosen[player] = picks
            wait(browser, lambda b, p=player, m=picks: b.execute_script(
                "return DicecamPage.app.view.state.table.players"
                ".find(p => p.name === arguments[0]).missions", p) == m)
        # complete: the winner, and the engine's score of the table the demo drew
        wait_text(browser, "#dt-winner", "Winner:")
        state = browser.execute_script("return DicecamPage.app.view.state")
        assert state["complete"] and not state["waiting_for"]
        codec = game.codec
        reference = codec.new_game(config)
        for action in (
            {"type": "set_dice", "zones": {zone: [{"colour": c, "value": v}
                                                  for (c, v), n in dice.items()
                                                  for _ in range(n)]
                                           for zone, dice in expected.items()}},
            *({"type": "set_agents", "district": d, "agents": dict(c)}
              for d, c in agents.items()),
            *({"type": "set_missions", "player": p, "missions": m} for p, m in chosen.items()),
        ):
            reference = codec.apply(reference, codec.action_from_json(action))
        scored = codec.state_to_json(reference)
        assert [(p["name"], p["total"]) for p in state["players"]] == [
            (p["name"], p["total"]) for p in scored["players"]]
        for player in scored["players"]:
            row = css(browser, f'#dt-breakdown tr[data-player="{player["name"]}"]')
            assert row.find_elements(By.TAG_NAME, "td")[4].text == str(player["total"])
        assert text_of(browser, "#dt-winner") == f"Winner: {scored['winner']}"
        # in German too: the card's German rule under its name
        tap(browser, '[data-set-lang="de"]')
        wait(browser, lambda b: (e := _visible(b, '.mission-picker[data-player="Ann"] '
                                                  ".mission-option .mission-rule")) is not None
             and e.text == catalogue[e.find_element(By.XPATH, "..").get_attribute(
                 "data-mission")]["rules"]["de"])
        wait_text(browser, "#dt-winner", "Sieger:")
        print(f"asked {asked} of {len(_roll(browser)['dice'])} boxes")
        # issue 59, item 2: Games -> Open on the finished game reads nothing over it
        store = services(running.app).session.store
        game_id = browser.execute_script("return DicecamPage.app.view.game_id")
        logged, updated = len(store.log(game_id)), store.get_game(game_id).updated
        # another game played meanwhile: the demo camera's table changes
        new_game(browser, "charidice", PLAYERS)
        wait(browser, lambda b: b.execute_script(
            "return DicecamPage.app.view.game_id") != game_id)
        time.sleep(2)
        tap(browser, "#open-games")
        tap(browser, f'[data-open-game="{game_id}"]')
        time.sleep(4)  # the demo lays the endgame again: it settles and is read
        # the table as stored, read again: shown, nothing stored
        wait(browser, lambda b: _roll(b).get("status") == "shown", WAIT_SECONDS)
        wait_text(browser, "#dt-winner", "Sieger:")
        assert len(store.log(game_id)) == logged
        assert store.get_game(game_id).updated == updated
    finally:
        tap(browser, '[data-set-lang="en"]')
        running.stop()


def _play_dicetopia_to_the_end(session: Any) -> int:
    """A finished Dicetopia game of the demo's endgame table, entered as taps (its dice as
    the demo lays them, the agents as they lie, two missions each); its id."""
    from dicecam.webapp.session.tablet_commands import Act, NewGame

    game = get_game("dicetopia")
    config = {"players": [{"name": name} for name in PLAYERS]}
    due = game.table_due(game.codec.new_game(config))
    truth = list(DemoSource(game.dice_set).laid_table(demo_layout(due)).dice)
    session.new_game(NewGame("dicetopia", config))
    session.act(Act({"type": "set_dice", "zones": {
        zone: [{"colour": c, "value": v} for (c, v), n in dice.items() for _ in range(n)]
        for zone, dice in _zone_dice(truth).items()}}))
    for zone in due.zones:
        if zone.markers:
            session.act(Act({"type": "set_agents", "district": zone.zone,
                             "agents": dict(Counter(PLAYERS[o] for o in zone.markers))}))
    missions = [m for m in game.catalogue()["missions"]
                if m not in ("risiko", "trittbrettgaenger")]
    for k, player in enumerate(PLAYERS):
        session.act(Act({"type": "set_missions", "player": player,
                         "missions": missions[2 * k:2 * k + 2]}))
    assert session.view()["state"]["complete"]
    return session.view()["game_id"]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("size", ["tablet", "phone"])
def test_a_finished_game_opened_again_stores_nothing_the_camera_reads(
        browser: Any, tmp_path: Path, size: str, lang: str) -> None:
    """Issue 59, item 2, at both sizes in both languages: Games -> Open on a finished game
    while the camera reads a table; the reading is shown or waits for a tap, never
    stored, and the game's last-move time stays."""
    from dicecam.webapp.camera.source import TableCamera
    from tests.webapp.test_browser_table import at_size, open_in

    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"),
                            "OUTPUTS": TableCamera("demo")})
    try:
        at_size(browser, size)
        open_in(browser, running, lang)
        session = services(running.app).session
        game_id = _play_dicetopia_to_the_end(session)
        store = session.store
        logged, updated = len(store.log(game_id)), store.get_game(game_id).updated
        # a roll is told apart by when it settled: a source opened again counts its rolls
        # from 1 again
        shown_before = _roll(browser).get("settled_at")
        new_game(browser, "charidice", PLAYERS)  # another game: the demo's table changes
        wait(browser, lambda b: b.execute_script(
            "return DicecamPage.app.view.game_id") != game_id)
        # the other game's dice thrown and read first: Charidice's demo throws when asked,
        # and until then the endgame lies there still, so that opening the finished game
        # again would change nothing the camera could settle on
        wait(browser, lambda b: _visible(b, "#demo-roll"))
        tap(browser, "#demo-roll")
        wait(browser, lambda b: _roll(b).get("settled_at") not in (None, shown_before),
             3 * WAIT_SECONDS)
        before = _roll(browser).get("settled_at")
        tap(browser, "#open-games")
        finished = {"en": "finished", "de": "zu ende gespielt"}[lang]
        row = wait(browser, lambda b: css(b, f'li.stored-game[data-game-id="{game_id}"]'))
        assert finished in row.text.lower(), row.text
        assert not row.find_elements(By.CSS_SELECTOR, "[data-close-game]")  # no "End game"
        tap(browser, f'[data-open-game="{game_id}"]')
        # the demo lays the endgame out again; it settles and is read
        try:
            wait(browser, lambda b: (r := _roll(b)).get("settled_at") not in (None, before)
                 and r.get("status") in ("shown", "pending"), 3 * WAIT_SECONDS)
        except TimeoutException:
            roll = _roll(browser)
            raise AssertionError(
                f"the finished game's table was not shown: roll {roll.get('roll_id')} "
                f"settled at {roll.get('settled_at')} (before {before}), status "
                f"{roll.get('status')}, {len(roll.get('dice') or [])} dice, game "
                f"{browser.execute_script('return DicecamPage.app.view.game_id')}") from None
        wait_text(browser, "#dt-winner", {"en": "Winner:", "de": "Sieger:"}[lang])
        time.sleep(1)  # a reading stored by mistake would land now
        assert len(store.log(game_id)) == logged
        assert store.get_game(game_id).updated == updated
    finally:
        running.stop()
