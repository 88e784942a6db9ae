"""The tablet page in a real browser: Debian's chromium, headless, driven by selenium.

Each game's main flow is played by tapping, as a player would: a new game from the dialog,
dice entered on the pad (or read from the live source), the game's buttons, undo, and the
language switch. The server runs in this process on a free port of 127.0.0.1.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dicecam.reading import DieReading, FrameReading, SettledRoll
from dicecam.webapp.api.app import create_app, services
from tests.support.browsers import BROWSER_MARKS, wait
from tests.support.waiting import WAIT_SECONDS

pytestmark = BROWSER_MARKS

webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (the test extra)")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402


@dataclass
class Server:
    url: str
    app: Any
    stop: Callable[[], None]


def start_server(config: dict[str, Any]) -> Server:
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    app = create_app(config)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    services(app).start_reader()

    def stop() -> None:
        server.shutdown()
        thread.join(5)
        services(app).close()

    return Server(f"http://127.0.0.1:{server.server_port}/", app, stop)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = start_server({"DB_PATH": str(tmp_path / "games.sqlite")})
    try:
        yield running
    finally:
        running.stop()


def open_page(browser: Any, server: Server, *, paired: bool = True) -> None:
    browser.get(server.url)
    browser.execute_script("localStorage.clear()")
    browser.get(server.url)
    wait(browser, lambda b: b.execute_script(
        "return document.getElementById('new-game-name').options.length") >= 4)
    if paired:
        pair_tablet(browser, server)


def pair_tablet(browser: Any, server: Server) -> None:
    """Type the server's PIN as a player would: the button in the bar, the PIN, Pair; and,
    as a player would, Pair again when the page says the server did not answer in time
    (a server whose demo camera shares two busy cores with other tests' browsers may take
    longer than the page's 10 s)."""
    tap(browser, "#pair-open")
    type_pin(browser, server.app.config["PAIRING_PIN"])

    def paired_or_retried(b: Any) -> bool:
        if "paired" in b.find_element(By.TAG_NAME, "body").get_attribute("class"):
            return True
        error = b.find_element(By.ID, "pair-error")
        if error.is_displayed() and error.text.strip():
            b.execute_script("document.getElementById('pair-error').textContent = ''")
            tap(b, "#pair-submit")
        return False

    wait(browser, paired_or_retried)


def type_pin(browser: Any, pin: str) -> None:
    field = css(browser, "#pair-pin")
    field.clear()
    field.send_keys(pin)
    tap(browser, "#pair-submit")


def css(browser: Any, selector: str) -> Any:
    return wait(browser, lambda b: _visible(b, selector))


def _visible(browser: Any, selector: str) -> Any:
    found = [e for e in browser.find_elements(By.CSS_SELECTOR, selector) if e.is_displayed()]
    return found[0] if found else None


def tap(browser: Any, selector: str) -> None:
    def click(b: Any) -> bool:
        element = _visible(b, selector)
        if element is None:
            return False
        b.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return True

    wait(browser, click)


def tap_until(browser: Any, selector: str, done: Callable[[Any], bool]) -> None:
    """Tap ``selector`` and wait until ``done``; as a player would, tap again when the page
    says the server did not answer (its 10 s: a server whose demo camera shares two busy
    cores with other tests' browsers may answer later, and a full parallel run once
    timed out waiting for the turn after a Charidice choice)."""
    tap(browser, selector)

    def done_or_retried(b: Any) -> bool:
        if done(b):
            return True
        toast = b.find_element(By.ID, "toast")
        if toast.is_displayed() and "did not answer" in toast.text:
            b.execute_script("document.getElementById('toast').hidden = true")
            if _visible(b, selector) is not None:
                tap(b, selector)
        return False

    wait(browser, done_or_retried)


def text_of(browser: Any, selector: str) -> str:
    return css(browser, selector).text


def wait_text(browser: Any, selector: str, expected: str, timeout: float = WAIT_SECONDS) -> None:
    wait(browser, lambda b: (e := _visible(b, selector)) is not None and expected in e.text,
         timeout)


def new_game(browser: Any, game: str, players: list[str],
             extra: Callable[[Any], None] | None = None) -> None:
    tap(browser, "#open-new-game")
    Select(css(browser, "#new-game-name")).select_by_value(game)
    for index, name in enumerate(players):
        # a new row appears as the last one is filled in: look the rows up each time
        field = browser.find_elements(By.CSS_SELECTOR, "#new-game-players input")[index]
        field.clear()
        field.send_keys(name)
    if extra:
        extra(browser)
    tap(browser, "#new-game-start")
    wait(browser, lambda b: not b.find_element(By.ID, "new-game-dialog").get_attribute("open"))
    wait(browser, lambda b: b.find_element(By.ID, "game-view").get_attribute("data-game") == game)


def enter_dice(browser: Any, groups: dict[tuple[str, str], list[int]],
               open_with: str = "#enter-dice") -> None:
    """Tap the pad: {(zone, colour): [values]}; zone "" when the game uses none."""
    tap(browser, open_with)
    css(browser, "#entry-dialog[open]")
    for (zone, colour), values in groups.items():
        for value in values:
            selector = (f'.entry-group[data-zone="{zone}"][data-colour="{colour}"] '
                        f'.entry-cell[data-value="{value}"]')
            tap(browser, selector)
    tap(browser, "#entry-submit")
    wait(browser, lambda b: not b.find_element(By.ID, "entry-dialog").get_attribute("open"))


# --- Charidice ---------------------------------------------------------------------------


def test_the_setup_form_takes_player_limits_from_the_engines(browser: Any,
                                                             server: Server) -> None:
    from dicecam.scorer.registry import get_game

    for game in ("diceparty", "v6"):
        open_page(browser, server)  # a fresh form (names typed stay when the game changes)
        tap(browser, "#open-new-game")
        limits = get_game(game)
        Select(css(browser, "#new-game-name")).select_by_value(game)
        rows = browser.find_elements(By.CSS_SELECTOR, "#new-game-players input")
        assert len(rows) == limits.min_players + 1  # the needed rows and one free one
        for index in range(min(limits.max_players, 20)):
            browser.find_elements(By.CSS_SELECTOR, "#new-game-players input")[index].send_keys(
                f"P{index}")
        shown = len(browser.find_elements(By.CSS_SELECTOR, "#new-game-players input"))
        assert shown == min(limits.max_players, 21)  # never more rows than the engine allows
    assert get_game("v6").max_players > 20  # a V6 evening has room for many players


def test_charidice_round(browser: Any, server: Server) -> None:
    open_page(browser, server)
    # a real WebSocket carries the updates, not long-polling
    wait(browser, lambda b: b.execute_script(
        "return DicecamPage.socket.io.engine.transport.name") == "websocket")
    new_game(browser, "charidice", ["Ann", "Bo"])
    wait_text(browser, "#cd-turn", "Ann plays, Bo receives the gift")
    tap(browser, "#cd-big-gift")
    wait_text(browser, "#cd-turn", "Big gift")
    enter_dice(browser, {("", "red"): [1, 2], ("", "blue"): [3], ("", "green"): [4],
                         ("", "purple"): [5], ("", "black"): [6]})
    wait_text(browser, "#roll-text", "scored")
    css(browser, "#cd-options .option-row")
    # keep two dice, then undo the keep
    tap(browser, '#cd-dice [data-index="0"]')
    wait(browser, lambda b: "kept" in b.find_element(
        By.CSS_SELECTOR, '#cd-dice [data-index="0"]').get_attribute("class"))
    tap(browser, "#undo")
    wait(browser, lambda b: "kept" not in b.find_element(
        By.CSS_SELECTOR, '#cd-dice [data-index="0"]').get_attribute("class"))
    best = css(browser, '#cd-options [data-option="0"] button').text
    points = int(best.split(":")[1].split("+")[0])
    tap(browser, '#cd-options [data-option="0"] button')
    wait_text(browser, "#cd-turn", "Bo plays, Ann receives the gift")
    sheet = browser.find_element(By.CSS_SELECTOR, '#cd-sheets table[data-player="Ann"]')
    assert sheet.find_elements(By.CSS_SELECTOR, "tbody tr")[0].text.split()[1] == str(points)
    assert css(browser, "#cd-sheets button").text == "Print"
    # the language switch
    tap(browser, '[data-set-lang="de"]')
    wait_text(browser, "#undo", "Rückgängig")
    wait_text(browser, "#cd-turn", "Bo ist dran")
    tap(browser, '[data-set-lang="en"]')
    wait_text(browser, "#undo", "Undo")


# --- pairing ------------------------------------------------------------------------------


def test_watching_needs_no_pin_and_a_change_asks_for_it(browser: Any, server: Server) -> None:
    open_page(browser, server, paired=False)
    assert text_of(browser, "#pair-open") == "Watching only: enter PIN to play"
    tap(browser, '[data-set-lang="de"]')
    wait_text(browser, "#pair-open", "PIN eingeben zum Mitspielen")
    tap(browser, '[data-set-lang="en"]')
    # the New game dialog is open to everyone; Start asks for the PIN first
    tap(browser, "#open-new-game")
    Select(css(browser, "#new-game-name")).select_by_value("charidice")
    inputs = browser.find_elements(By.CSS_SELECTOR, "#new-game-players input")
    for field, name in zip(inputs, ["Ann", "Bo"], strict=False):
        field.send_keys(name)
    tap(browser, "#new-game-start")
    css(browser, "#pair-dialog[open]")
    assert "type the PIN shown on the computer where dicecam runs" in text_of(
        browser, "#pair-dialog")
    type_pin(browser, "12345")
    wait_text(browser, "#pair-error", "The PIN has 6 digits.")
    wrong = "000000" if server.app.config["PAIRING_PIN"] != "000000" else "111111"
    type_pin(browser, wrong)
    wait_text(browser, "#pair-error", "That is not the PIN.")
    assert services(server.app).session.game_name is None
    type_pin(browser, server.app.config["PAIRING_PIN"])
    # paired: the game the player asked for starts without a second tap
    wait(browser, lambda b: b.find_element(By.ID, "game-view").get_attribute("data-game")
         == "charidice")
    assert not browser.find_element(By.ID, "pair-open").is_displayed()
    # the token is kept: a reload stays paired
    browser.refresh()
    wait(browser, lambda b: "paired" in b.find_element(By.TAG_NAME, "body").get_attribute(
        "class"))


# --- Dice Party --------------------------------------------------------------------------


def test_dice_party_turn(browser: Any, server: Server) -> None:
    open_page(browser, server)
    new_game(browser, "diceparty", ["Ann", "Bo"])
    wait_text(browser, "#dp-status", "every party is thrown")
    enter_dice(browser, {("Ann", "yellow"): [6, 6], ("Ann", "orange"): [5, 4],
                         ("Bo", "yellow"): [1, 1], ("Bo", "orange"): [1, 2]})
    wait_text(browser, "#dp-status", "Ann throws the party")
    wait_text(browser, "#dp-preparty", "Ann 21")
    enter_dice(browser, {("Ann", "yellow"): [6, 6], ("Ann", "orange"): [5, 4]})
    wait_text(browser, "#dp-verdict", "No escalation")
    tap(browser, '[data-action="pickpocket"][data-count="1"]')
    wait_text(browser, "#dp-status", "how many VIPs to provoke")
    tap(browser, '[data-action="provoke"][data-count="1"]')
    wait_text(browser, "#dp-status", "how the party grows")
    options = browser.find_elements(By.CSS_SELECTOR, ".grow-option")
    assert [o.get_attribute("data-option") for o in options] == ["vip", "party_people"]
    assert all("points" in o.text for o in options)  # both outcomes shown before choosing
    tap(browser, '.grow-option[data-option="vip"]')
    wait_text(browser, "#dp-status", "Bo throws the party")
    row = css(browser, '#dp-players tr[data-player="Ann"]')
    assert row.find_elements(By.TAG_NAME, "td")[3].text == "1"  # one wallet stolen
    bo = css(browser, '#dp-players tr[data-player="Bo"]')
    assert bo.find_elements(By.TAG_NAME, "td")[1].text.split()[-1] == "1"  # one Mob arrived


# --- Dicetopia -------------------------------------------------------------------------


def test_dicetopia_endgame(browser: Any, server: Server) -> None:
    open_page(browser, server)

    def factions(b: Any) -> None:
        selects = b.find_elements(By.CSS_SELECTOR, '#new-game-players select[name="faction"]')
        Select(selects[0]).select_by_value("hollows")

    new_game(browser, "dicetopia", ["Ann", "Bo"], factions)
    css(browser, "#dt-winner")
    tap(browser, '[data-district="the_agency"] .agent-row[data-player="Ann"] '
                 '[data-agents="plus"]')
    wait(browser, lambda b: b.find_element(
        By.CSS_SELECTOR, '[data-district="the_agency"] .agent-row[data-player="Ann"] b'
    ).text == "1")
    enter_dice(browser, {("the_agency", "purple"): [5]},
               open_with='button[data-zone="the_agency"]')
    wait(browser, lambda b: "Ann" in b.find_element(
        By.CSS_SELECTOR, '[data-district="the_agency"]').text.split("control")[-1])
    enter_dice(browser, {("board:Ann", "white"): [3, 4]},
               open_with='#dt-boards button[data-zone="board:Ann"]')
    wait_text(browser, '#dt-boards [data-zone="board:Ann"]', "3")
    tap(browser, '.mission-picker[data-player="Bo"] button[data-mission]')
    tap(browser, '.mission-picker[data-player="Bo"] [data-action="set_missions"]')
    wait_text(browser, "#dt-missing", "Bo holds 1 of 2 missions")
    wait_text(browser, "#dt-winner", "Leading so far: Ann")
    ann = css(browser, '#dt-breakdown tr[data-player="Ann"]')
    assert int(ann.find_elements(By.TAG_NAME, "td")[4].text) > 0


# --- V6 ------------------------------------------------------------------------------------


def test_v6_round(browser: Any, server: Server) -> None:
    open_page(browser, server)
    new_game(browser, "v6", ["Ann", "Bo", "Cy"])
    tap(browser, '.joker-chooser [data-joker="fumo"]')
    tap(browser, '[data-action="jokers"]')
    wait_text(browser, "#v6-round", "Ann")
    tap(browser, '[data-action="throw"][data-value="3"]')
    wait_text(browser, "#v6-total", "3")
    # only legal announcements are offered: Fumo is one now, and the button says so
    assert css(browser, '[data-action="joker"][data-joker="fumo"]')
    tap(browser, '[data-action="throw"][data-value="4"]')
    wait_text(browser, "#v6-total", "7")
    tap(browser, '[data-action="stop"]')
    wait_text(browser, "#v6-table", "Ann")
    wait(browser, lambda b: "7" in b.find_element(By.ID, "v6-table").text)
    css(browser, '.joker-chooser [data-joker="fumo"]')  # Bo chooses next
    css(browser, "#v6-standings")


# --- the live frame and tap-to-correct --------------------------------------------------


@dataclass(frozen=True)
class Output:
    frame_bgr: np.ndarray
    reading: FrameReading
    settled: SettledRoll | None = None


def open_on_live_frame(browser: Any, running: Any) -> None:
    """Open the page and wait until the server's first camera frame is shown."""
    open_page(browser, running)
    wait(browser, lambda b: "has-frame" in b.find_element(
        By.TAG_NAME, "body").get_attribute("class"))


def test_live_frame_and_tap_to_correct(browser: Any, tmp_path: Path) -> None:
    import cv2

    colours = ["red", "blue", "green", "purple", "black", "grey"]
    dice = tuple(
        DieReading(x=80.0 + 90 * i, y=200.0, w=60.0, h=60.0, value=i + 1, colour=colours[i],
                   confidence=0.5 if i == 2 else 0.98)
        for i in range(6))
    image = np.full((400, 640, 3), 60, np.uint8)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), image)
    release = threading.Event()

    def outputs(game: str | None) -> Iterator[Output]:
        frame = cv2.imread(str(path))
        reading = FrameReading(width=640, height=400, dice=dice)
        while game != "charidice":
            yield Output(frame, reading)
            time.sleep(0.05)
        release.wait(WAIT_SECONDS)
        yield Output(frame, reading, SettledRoll(roll_id=1, width=640, height=400, dice=dice))
        while True:
            yield Output(frame, reading)
            time.sleep(0.05)

    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"), "OUTPUTS": outputs})
    try:
        open_on_live_frame(browser, running)
        new_game(browser, "charidice", ["Ann", "Bo"])
        release.set()
        wait_text(browser, "#roll-text", "waits for a check")
        canvas = css(browser, "#overlay")
        scale = canvas.size["width"] / 640
        # selenium clicks relative to the element's centre
        x = (80 + 90 * 2) * scale - canvas.size["width"] / 2
        y = 200 * scale - canvas.size["height"] / 2
        webdriver.ActionChains(browser).move_to_element_with_offset(
            canvas, int(x), int(y)).click().perform()
        css(browser, "#die-dialog[open]")
        # the colour first (the die's own is chosen already), then one tap on the value
        # answers
        tap(browser, '#die-colours [data-colour="green"]')
        tap(browser, '#die-values [data-value="5"]')
        wait_text(browser, "#roll-text", "scored")
        wait(browser, lambda b: b.find_element(
            By.CSS_SELECTOR, '#cd-dice [data-index="2"]').text == "5")
    finally:
        running.stop()


# --- on the demo source --------------------------------------------------------------------


def test_charidice_and_v6_play_on_the_demo_source(browser: Any, tmp_path: Path) -> None:
    """The demo's rolls settle on the page and are scored, with no tap but the choices.

    The demo's own dice stand in for the table reader here (``bench web --truth``), so the
    test needs no trained model and checks the web path only."""
    from dicecam.tools.bench.speed.web import truth_outputs

    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"),
                            "OUTPUTS": lambda game: truth_outputs(game or "charidice", 4.0)})
    try:
        open_on_live_frame(browser, running)
        new_game(browser, "charidice", ["Ann", "Bo"])
        wait_text(browser, "#roll-text", "Roll of 6 dice scored", timeout=2 * WAIT_SECONDS)
        tap_until(browser, '#cd-options [data-option="0"] button',
                  lambda b: (e := _visible(b, "#cd-turn")) is not None and "Bo plays" in e.text)
        new_game(browser, "v6", ["Ann", "Bo"])
        tap(browser, '[data-action="jokers"]')
        wait_text(browser, "#roll-text", "Roll of 1 die scored", timeout=2 * WAIT_SECONDS)
        assert css(browser, "#v6-log li").text
    finally:
        running.stop()


# --- the dice pad: one entry per tap ------------------------------------------------------


def pad_count(browser: Any, colour: str, value: int) -> str:
    return browser.find_element(By.CSS_SELECTOR, f'.entry-group[data-colour="{colour}"] '
                                f'.entry-cell[data-value="{value}"] small').text


def test_quick_taps_on_the_dice_pad_are_one_entry_each(browser: Any, server: Server) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    open_page(browser, server)
    new_game(browser, "charidice", ["Ann", "Bo"])
    tap(browser, "#enter-dice")
    css(browser, "#entry-dialog[open]")
    cell = '.entry-group[data-colour="red"] .entry-cell[data-value="{}"]'
    three = css(browser, cell.format(3))
    five = css(browser, cell.format(5))
    step = five.location["x"] - three.location["x"]
    # two quick taps, 3 then 5, with no pause between them (the pad redraws under the
    # finger after the first): 3 once and 5 once
    ActionChains(browser, duration=0).move_to_element(three).click().move_by_offset(
        step, 0).click().perform()
    wait(browser, lambda b: pad_count(b, "red", 5) == "×1")
    assert pad_count(browser, "red", 3) == "×1"
    # one press whose click arrives twice (a touch screen's ghost click) is one tap
    browser.execute_script("""
        const button = document.querySelector(arguments[0]);
        button.dispatchEvent(new PointerEvent('pointerdown', {bubbles: true, pointerId: 7}));
        button.dispatchEvent(new MouseEvent('click', {bubbles: true, detail: 1}));
        document.querySelector(arguments[0])
          .dispatchEvent(new MouseEvent('click', {bubbles: true, detail: 1}));""",
        cell.format(3))
    assert pad_count(browser, "red", 3) == "×2"
    # the next real tap is a new entry
    css(browser, cell.format(3)).click()
    wait(browser, lambda b: pad_count(b, "red", 3) == "×3")
    for colour, value in (("blue", 4), ("green", 5)):
        css(browser, f'.entry-group[data-colour="{colour}"] .entry-cell[data-value="{value}"]'
            ).click()
    # a double tap on "Score these dice" scores the throw once
    ActionChains(browser, duration=0).double_click(css(browser, "#entry-submit")).perform()
    wait_text(browser, "#roll-text", "Roll of 6 dice")
    # that something does NOT happen has no condition to wait on: a second score would
    # arrive right after the first, so a short look shows it (on a busy machine it may
    # come later and go unseen here: the test can then miss a bug, never fail wrongly)
    time.sleep(0.5)
    assert services(server.app).session.view()["state"]["turn"]["throws"] == 1


# --- the games list ------------------------------------------------------------------------


def test_games_list_shows_scores_and_ends_and_deletes_games(browser: Any, server: Server) -> None:
    open_page(browser, server)
    new_game(browser, "charidice", ["Ann", "Bo"])
    enter_dice(browser, {("", "red"): [1, 2], ("", "blue"): [3], ("", "green"): [4],
                         ("", "purple"): [5], ("", "black"): [6]})
    tap(browser, '#cd-options [data-option="0"] button')
    wait_text(browser, "#cd-turn", "Bo plays")
    new_game(browser, "dicetopia", ["Cy", "Di"])
    tap(browser, "#open-games")
    charidice = '#games-list li[data-game-id="1"]'
    # the sheets' totals, named: 20 scored, the gift of 1; not finished, so it can be ended
    wait_text(browser, charidice, "points: Ann 20")
    assert "Bo 1" in text_of(browser, charidice) and "finished" not in text_of(browser,
                                                                              charidice)
    tap(browser, '[data-close-game="1"]')
    wait_text(browser, charidice, "ended")
    # a game played to its end by the rules (its standing says so) is marked finished and
    # offers no "End game"
    session = server.app.extensions["dicecam"].session
    session.store.set_standing(2, {"scores": [{"player": "Cy", "score": 3},
                                              {"player": "Di", "score": 1}],
                                   "winners": ["Cy"], "over": True})
    browser.execute_script("document.getElementById('games-dialog').close()")
    tap(browser, "#open-games")
    wait_text(browser, '#games-list li[data-game-id="2"]', "finished")
    assert "stars: Cy 3 · Di 1 · Winner: Cy" in text_of(browser,
                                                        '#games-list li[data-game-id="2"]')
    assert not browser.find_elements(By.CSS_SELECTOR, '[data-close-game="2"]')
    tap(browser, '[data-delete-game="2"]')  # the game being played: one tap only asks
    wait_text(browser, '[data-delete-game="2"]', "Really delete?")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#games-list li.stored-game")) == 2
    tap(browser, '[data-delete-game="2"]')
    wait(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR,
                                                "#games-list li.stored-game")) == 1)
    wait(browser, lambda b: b.find_element(By.ID, "no-game").is_displayed())
    # German: the list speaks it too
    browser.execute_script("document.getElementById('games-dialog').close()")
    tap(browser, '[data-set-lang="de"]')
    tap(browser, "#open-games")
    wait_text(browser, charidice, "beendet")
    assert "Punkte: Ann 20" in text_of(browser, charidice)


# --- help ------------------------------------------------------------------------------------


def test_help_is_reachable_from_every_game_and_links_the_rules(browser: Any,
                                                               server: Server) -> None:
    open_page(browser, server)
    # before any game: the help of the first game offered, and a choice of the others
    tap(browser, "#open-help")
    css(browser, "#help-dialog[open] #help-sections h4")
    browser.execute_script("document.getElementById('help-dialog').close()")
    expected = {"diceparty": "4 Pickpocket", "charidice": "Score this: 14 + 0 ... gift 6",
                "dicetopia": "Agents + and −", "v6": "Zombie"}
    players = {"diceparty": ["Ann", "Bo"], "charidice": ["Ann", "Bo"],
               "dicetopia": ["Ann", "Bo"], "v6": ["Ann", "Bo", "Cy"]}
    for game, heading in expected.items():
        new_game(browser, game, players[game])
        tap(browser, "#open-help")
        wait_text(browser, "#help-sections", heading)  # the game being played, at once
        if game in ("diceparty", "charidice"):  # the help is all their rules page holds
            assert _visible(browser, "#help-rules") is None
        else:
            link = css(browser, "#help-rules").get_attribute("href")
            assert link.endswith(f"/rules/{game}?lang=en")
        browser.execute_script("document.getElementById('help-dialog').close()")
    # German: the help speaks German, and so does the rules page it links
    tap(browser, '[data-set-lang="de"]')
    tap(browser, "#open-help")
    wait_text(browser, "#help-sections", "Diebische Eins")
    link = css(browser, "#help-rules").get_attribute("href")
    assert link.endswith("/rules/v6?lang=de")
    browser.get(link)
    wait_text(browser, "main.rules", "verdoppelt jeden Wurf außer der Sechs")


def test_v6_croupier_may_pass_up_a_theft_and_keep_runkelrueb(browser: Any,
                                                             server: Server) -> None:
    open_page(browser, server)
    new_game(browser, "v6", ["Ann", "Bo", "Cy"])
    tap(browser, '.joker-chooser [data-joker="runkelrueb"]')
    tap(browser, '[data-action="jokers"]')
    wait_text(browser, "#v6-round", "Ann")
    tap(browser, '[data-action="throw"][data-value="3"]')
    tap(browser, '[data-action="throw"][data-value="1"]')
    wait_text(browser, '[data-action="pass_steal"]', "Rob nobody")
    tap(browser, '[data-action="pass_steal"]')
    wait_text(browser, "#v6-total", "3")  # the one brought nothing
    tap(browser, '[data-action="throw"][data-value="6"]')
    wait_text(browser, '[data-action="let_six_stand"]', "Let the six stand")
    tap(browser, '[data-action="let_six_stand"]')
    css(browser, '.joker-chooser [data-joker="runkelrueb"]')  # Bo chooses next
    assert services(server.app).session.view()["state"]["spent_jokers"].get("Ann", []) == []


# --- layout at a phone's and a tablet's size, and both languages on every view ----------------


def dice(zone: str | None, colour: str, values: list[int]) -> list[dict[str, Any]]:
    return [{"value": v, "colour": colour, "zone": zone} for v in values]


def set_up_views(server: Server) -> dict[str, Callable[[], None]]:
    """Each game in a state with most of its view on screen (a verdict, options, sheets,
    breakdowns, a round in play), made through the session as taps would make it."""
    from dicecam.webapp.session import tablet_commands as tc

    session = services(server.app).session

    def new(game: str, players: list[Any], **config: Any) -> None:
        session.new_game(tc.parse_new_game(
            {"game": game, "config": {"players": players, **config}}, session.games))

    def act(action: dict[str, Any]) -> None:
        session.act(tc.parse_act(action))

    def enter(entered: list[dict[str, Any]]) -> None:
        session.enter_roll(tc.parse_enter_roll({"dice": entered}))

    def diceparty() -> None:
        # Annabelle provokes Mobs onto the others; Benedikt's party then escalates, with a
        # group covering one Mob (the verdict and its grouping on screen), and Cy plays on
        new("diceparty", ["Annabelle", "Benedikt", "Cy"])
        enter(dice("Annabelle", "yellow", [6, 6]) + dice("Annabelle", "orange", [6, 6])
              + dice("Benedikt", "yellow", [1, 1]) + dice("Benedikt", "orange", [1, 2])
              + dice("Cy", "yellow", [2, 2]) + dice("Cy", "orange", [3, 3]))
        enter(dice("Annabelle", "yellow", [6, 6]) + dice("Annabelle", "orange", [6, 6]))
        act({"type": "pickpocket", "count": 0})
        act({"type": "provoke", "count": 2, "order": ["Benedikt", "Cy"]})
        act({"type": "grow", "option": "vip"})
        party = next(p for p in session.view()["state"]["players"]
                     if p["name"] == "Benedikt")["party"]
        mobs = [2] + [6] * (party["mob"] - 1)
        enter(dice("Benedikt", "yellow", [1] * party["party_people"])
              + dice("Benedikt", "orange", [1] * party["vip"]) + dice("Benedikt", "red", mobs))

    def charidice() -> None:
        new("charidice", ["Annabelle", "Benedikt"])
        for _ in range(2):  # two turns scored: numbers in both sheets
            enter(dice(None, "red", [1, 2]) + dice(None, "blue", [3]) + dice(None, "green", [4])
                  + dice(None, "purple", [5]) + dice(None, "black", [6]))
            best = session.view()["state"]["options"][0]
            act({"type": "choose", "kind": best["kind"], "scored": best["scored"]})
        enter(dice(None, "red", [1, 2]) + dice(None, "blue", [3]) + dice(None, "green", [4])
              + dice(None, "purple", [5]) + dice(None, "black", [6]))

    def dicetopia() -> None:
        new("dicetopia", [{"name": "Annabelle", "faction": "hollows"},
                          {"name": "Benedikt", "faction": "centauri_bureau"}])
        act({"type": "set_agents", "district": "the_agency", "agents": {"Annabelle": 2}})
        act({"type": "set_dice", "zones": {"board:Annabelle": [
            {"colour": "purple", "value": 5}, {"colour": "white", "value": 3}]}})

    def v6() -> None:
        new("v6", ["Annabelle", "Benedikt", "Cy", "Dora"], seating="in_order")
        act({"type": "jokers", "jokers": ["fumo", "runkelrueb", "jule"]})
        for value in (3, 4, 1):
            act({"type": "throw", "value": value})

    return {"diceparty": diceparty, "charidice": charidice, "dicetopia": dicetopia, "v6": v6}


def show(browser: Any, server: Server, lang: str) -> None:
    browser.get(server.url)
    browser.execute_script(f"localStorage.setItem('dicecam.lang', '{lang}')")
    browser.get(server.url)
    wait(browser, lambda b: b.find_element(By.ID, "game-view").get_attribute("data-game"))
    css(browser, "#game-view .card")


WIDER_THAN_THE_SCREEN = """
    const width = document.documentElement.clientWidth;
    const wide = [];
    for (const el of document.querySelectorAll('body *')) {
      const box = el.getBoundingClientRect();
      if (box.width && (box.right > width + 0.5 || box.left < -0.5)) {
        wide.push(`${el.tagName}#${el.id}.${el.className} ` +
                  `${Math.round(box.left)}-${Math.round(box.right)}`);
      }
    }
    return [document.documentElement.scrollWidth, width, wide.slice(0, 8)];"""


def phone(browser: Any) -> None:
    """A 390 x 844 phone: its viewport, touch and overlay scrollbars (not a narrow desktop
    window, whose scrollbar takes 15 px of the width)."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})


def test_no_element_is_wider_than_a_phone_on_any_game_view(browser: Any,
                                                           server: Server) -> None:
    phone(browser)
    try:
        for game, set_up in set_up_views(server).items():
            set_up()
            for lang in ("en", "de"):
                show(browser, server, lang)
                scroll_width, width, wide = browser.execute_script(WIDER_THAN_THE_SCREEN)
                assert width == 390
                assert scroll_width <= width and wide == [], (game, lang, wide)
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


# Every text in a sheet's cells, as laid out: the boxes of its text (not of its cell), so
# text running out of its cell into the next one is caught.
SHEET_TEXT_BOXES = """
    const boxes = [];
    for (const table of document.querySelectorAll('#cd-sheets table.sheet')) {
      table.querySelectorAll('th, td').forEach((cell, index) => {
        const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = texts.nextNode(); node; node = texts.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const box of range.getClientRects()) {
            if (box.width) boxes.push({text: node.textContent, player: table.dataset.player,
                                       cellId: table.dataset.player + index,
                                       left: box.left, right: box.right, top: box.top,
                                       bottom: box.bottom, cell: cell.getBoundingClientRect()});
          }
        }
      });
    }
    const card = document.getElementById('cd-sheets').getBoundingClientRect();
    return [boxes, {left: card.left, right: card.right}];"""


def test_charidice_sheets_do_not_overlap_at_tablet_size(browser: Any, server: Server) -> None:
    browser.set_window_size(1280, 800)
    set_up_views(server)["charidice"]()
    for lang in ("en", "de"):
        show(browser, server, lang)
        boxes, card = browser.execute_script(SHEET_TEXT_BOXES)
        assert len({b["player"] for b in boxes}) == 2 and len(boxes) > 40
        for box in boxes:
            # every text inside its own cell and inside the card (nothing cut off)
            assert box["cell"]["left"] - 0.5 <= box["left"] and (
                box["right"] <= box["cell"]["right"] + 0.5), (lang, box["text"])
            assert card["left"] <= box["left"] and box["right"] <= card["right"], box["text"]
        for i, one in enumerate(boxes):
            for other in boxes[i + 1:]:
                if one["cellId"] == other["cellId"]:
                    continue
                apart = (one["right"] <= other["left"] + 0.5 or other["right"] <= one["left"] + 0.5
                         or one["bottom"] <= other["top"] + 0.5
                         or other["bottom"] <= one["top"] + 0.5)
                assert apart, (lang, one["text"], other["text"])
        totals = browser.find_elements(By.CSS_SELECTOR, "#cd-sheets td.total")
        assert len(totals) == 2 and all(t.is_displayed() and t.text for t in totals)
    # printed: the score sheets only, no throw or option buttons
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        shown = [e.get_attribute("id") or e.tag_name for e in browser.find_elements(
            By.CSS_SELECTOR, "#game-view > *, button") if e.is_displayed()]
        assert shown == ["cd-sheets"]
        pdf = browser.execute_cdp_cmd("Page.printToPDF", {"paperWidth": 8.27,
                                                          "paperHeight": 11.69})
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    import base64
    import re

    pages = re.findall(rb"/Count (\d+)", base64.b64decode(pdf["data"]))
    assert pages and int(pages[0]) == 1  # one A4 page (it printed two before)


# The words that give a sentence away as English or German; a text node holding one in the
# other language's view was left untranslated. Proper names (players, the board's
# districts, the factions, the jokers) are the same in both and are taken out first.
ENGLISH_WORDS = r"\b(the|and|of|with|is|to|throws?|holds?|waits?|chooses|scored|round|player|" \
                r"players|camera|dice|points|wins?|enter|score|games?|new|undo|help|steal|" \
                r"rob|stop|keep|pips|missing|none|no)\b"
#: ("die" is English too, "a purple die": German texts are caught by their other words)
GERMAN_WORDS = r"\b(und|der|das|den|dem|für|auf|eine|mit|ist|hat|wählt|Würfel|Spieler|Runde|" \
               r"Augen|Punkte|" \
               r"nicht|keine|noch|Spiel|Spiele|zurück|Hilfe|bestehlen|aufhören|behalten)\b"

VISIBLE_TEXTS = """
    const names = new Set(arguments[0]);
    const catalogue = window.DICECAM_CATALOGUE.dicetopia || {};
    for (const table of [catalogue.districts || {}, catalogue.factions || {}]) {
      for (const name of Object.values(table)) names.add(name);
    }
    for (const joker of Object.values((window.DICECAM_CATALOGUE.v6 || {}).jokers || {})) {
      names.add(joker.name);
    }
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, dialog:not([open]), [hidden]')) continue;
      if (!parent.getClientRects().length) continue;  // not laid out: not on screen
      let text = node.textContent;
      for (const name of names) text = text.split(name).join(' ');
      if (/[A-Za-zÄÖÜäöüß]{2}/.test(text)) out.push(text.trim());
    }
    return out;"""


def test_each_language_covers_every_text_on_every_view(browser: Any, server: Server) -> None:
    import re

    # the players, and the games' own names (only V6's has a German one)
    names = ["Annabelle", "Benedikt", "Cy", "Dora", "Dice Party", "Charidice", "Dicetopia"]
    wrong = {"de": re.compile(ENGLISH_WORDS, re.IGNORECASE),
             "en": re.compile(GERMAN_WORDS, re.IGNORECASE)}
    left_over = []
    for game, set_up in set_up_views(server).items():
        set_up()
        for lang in ("de", "en"):
            show(browser, server, lang)
            for text in browser.execute_script(VISIBLE_TEXTS, names):
                if wrong[lang].search(text):
                    left_over.append((game, lang, text))
    assert left_over == [], "\n".join(map(str, left_over))


# --- Dice Party from the camera: zones drawn on the picture ------------------------------


def party_dice(x0: float, values: dict[str, list[int]], y0: float = 120.0
               ) -> tuple[DieReading, ...]:
    """A party lying in a block from (x0, y0): its dice as read, sure of every colour."""
    found = []
    for colour, pips in values.items():
        for v in pips:
            k = len(found)
            found.append(DieReading(x=x0 + 50.0 * (k % 4), y=y0 + 50.0 * (k // 4), w=36.0,
                                    h=36.0, value=v, colour=colour, confidence=0.99,
                                    colour_scores=((colour, 0.99),)))
    return tuple(found)


def rolls_on_demand(frame: np.ndarray, rolls: list[tuple[DieReading, ...]],
                    settle: threading.Event, game: str) -> Callable[[str | None], Any]:
    """A camera for ``game`` showing ``frame``: each time ``settle`` is set, the next of
    ``rolls`` settles there and stays; the picture meanwhile."""
    height, width = frame.shape[:2]

    def outputs(playing: str | None) -> Iterator[Output]:
        shown: tuple[DieReading, ...] = ()
        roll_id = 0
        while True:
            if settle.is_set() and playing == game and roll_id < len(rolls):
                settle.clear()
                shown = rolls[roll_id]
                roll_id += 1
                yield Output(frame, FrameReading(width, height, shown),
                             SettledRoll(roll_id, width, height, shown))
            yield Output(frame, FrameReading(width, height, shown))
            time.sleep(0.05)

    return outputs


def drag(browser: Any, frame_from: tuple[float, float], frame_to: tuple[float, float],
         frame_width: float = 640) -> None:
    """Drag across the picture between two points given in the frame's pixels."""
    canvas = css(browser, "#overlay")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", canvas)
    scale = canvas.size["width"] / frame_width
    # selenium's offsets are from the element's centre
    x0 = frame_from[0] * scale - canvas.size["width"] / 2
    y0 = frame_from[1] * scale - canvas.size["height"] / 2
    webdriver.ActionChains(browser).move_to_element_with_offset(canvas, int(x0), int(y0)) \
        .click_and_hold().move_by_offset(int((frame_to[0] - frame_from[0]) * scale),
                                         int((frame_to[1] - frame_from[1]) * scale)) \
        .release().perform()


def test_dice_party_zones_drawn_on_the_picture_keep_two_parties_apart(
        browser: Any, tmp_path: Path) -> None:
    frame = np.full((400, 640, 3), 60, np.uint8)
    # both starting parties on the table: Ann's on the left, Bo's on the right
    ann = party_dice(40.0, {"yellow": [6, 5], "orange": [4, 3]})
    bo = party_dice(400.0, {"yellow": [1, 1], "orange": [2, 1]})
    # Ann's turn: her party thrown again (a Mob came with it in no game here: four guests)
    ann_throw = party_dice(40.0, {"yellow": [2, 2], "orange": [6, 1]}, y0=220.0)
    settle = threading.Event()
    outputs = rolls_on_demand(frame, [ann + bo, ann_throw + bo], settle, "diceparty")
    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"), "OUTPUTS": outputs})
    try:
        open_on_live_frame(browser, running)
        new_game(browser, "diceparty", ["Ann", "Bo"])
        settle.set()
        # eight dice for Ann's preparty throw of four: the page offers the zones, and why
        wait_text(browser, "#roll-error", "the throw shows 4 Party People, 4 VIP")
        wait_text(browser, "#zone-offer-text", "More dice lie on the table than Ann's party")
        # every die is sure and the rules refused the throw: "Dice are right" cannot help
        assert _visible(browser, "#confirm-roll") is None
        tap(browser, "#draw-zones")
        wait_text(browser, "#zone-draw-text", "around Ann's party")
        drag(browser, (10, 80), (300, 390))
        wait_text(browser, "#zone-draw-text", "around Bo's party")
        drag(browser, (630, 390), (350, 80))  # dragged backwards: the same rectangle
        wait_text(browser, "#zone-draw-text", "Every player has an area")
        tap(browser, "#zones-save")
        # the waiting roll, read again with its dice in the areas: both preparty throws
        wait_text(browser, "#roll-text", "Now: Ann throws the party. Last seen: 8 dice, "
                                         "scored as the preparty throw of Ann and Bo.")
        wait_text(browser, "#zone-offer-text", "Zones drawn")
        wait_text(browser, "#dp-preparty", "Ann 18")
        settle.set()  # Ann throws; Bo's party stays where it lies
        # no Party People at 6: nothing to steal, so the page waits for the provocation
        wait_text(browser, "#roll-text", "Now: Ann chooses how many VIPs to provoke. Last "
                                         "seen: 8 dice, 4 of them in the zone of Ann, scored "
                                         "as Ann's party.")
        assert css(browser, "#dp-legend").get_attribute("data-escalated") == "0"
        saved = running.app.extensions["dicecam"].session.view()["zones"]["zones"]
        assert [z["name"] for z in saved] == ["Ann", "Bo"]
    finally:
        running.stop()


# --- Dice Party played from the demo camera, no dice typed in ------------------------------


def test_a_dice_party_round_from_the_demo_camera(browser: Any, tmp_path: Path) -> None:
    """The demo table throws each party as the game waits for it, through the full table
    reader (the shipped models); the players only make their choices, and confirm a die
    the reader asks about as a player would. Preparty, a throw per player, an escalation
    check shown on the dice with its grouping, growth chosen."""
    from dicecam.webapp.camera.source import TableCamera

    running = start_server({"DB_PATH": str(tmp_path / "g.sqlite"),
                            "OUTPUTS": TableCamera("demo")})

    def roll() -> dict[str, Any]:
        return browser.execute_script("return DicecamPage.app.roll") or {}

    def scored_as(whose: str, timeout: float = 2 * WAIT_SECONDS) -> dict[str, Any]:
        """Wait until the roll panel says the dice were scored as ``whose``; a die the
        reader asks about is confirmed as read (the players look and tap)."""
        def settled(b: Any) -> bool:
            now = roll()
            if now.get("status") == "pending" and now.get("summary") and not now.get("error"):
                confirm = _visible(b, "#confirm-roll")
                if confirm is not None:
                    confirm.click()
            return f"scored as {whose}" in text_of(b, "#roll-text")
        wait(browser, settled, timeout)
        return roll()

    try:
        open_on_live_frame(browser, running)
        new_game(browser, "diceparty", ["Ann", "Bo"])
        wait_text(browser, "#roll-panel", "The demo table throws the dice the game waits for")
        scored_as("the preparty throw of Ann")
        scored_as("the preparty throw of Bo")
        wait_text(browser, "#dp-status", "throws the party")  # no tie in the seeded demo
        grouped = grown = False
        for _turn in range(8):  # the demo's throws are seeded: the same game every run
            thrower = browser.execute_script("return DicecamPage.app.view.state.active")
            if thrower is None:
                break
            thrown = scored_as(f"{thrower}'s party")
            assert css(browser, "#dp-legend").text.startswith(f"On the dice ({thrower}):")
            if thrown["marks"]["groups"]:  # a Mob at the party: checked, and grouped
                grouped = True
                legend = text_of(browser, "#dp-legend")
                assert "1 " in legend and "Mob" in legend
                groups = browser.execute_script(
                    "return DicecamPage.app.roll.marks.dice.filter(m => m && m.group === 0)"
                    ".length")
                assert groups >= 2  # guests and the Mob they cover, marked on the dice
            phase = browser.execute_script("return DicecamPage.app.view.state.phase")
            if phase in ("round_over", "game_over"):
                break
            # the steps with a choice wait for a tap (those with one outcome were taken by
            # themselves): steal nothing, provoke what may be provoked (the opponent gets
            # Mobs, so a check comes), grow by VIPs
            while (phase := browser.execute_script(
                    "return DicecamPage.app.view.state.phase")) in ("pickpocket", "provoke",
                                                                    "grow"):
                version = browser.execute_script("return DicecamPage.app.view.version")
                if phase == "pickpocket":
                    tap(browser, '[data-action="pickpocket"][data-count="0"]')
                elif phase == "provoke":
                    buttons = wait(browser, lambda b: b.find_elements(
                        By.CSS_SELECTOR, '[data-action="provoke"]'))
                    buttons[-1].click()
                else:
                    tap(browser, '.grow-option[data-option="vip"]')
                    grown = True
                wait(browser, lambda b, v=version: b.execute_script(
                    "return DicecamPage.app.view.version") != v)
            wait(browser, lambda b, t=thrower: b.execute_script(
                "return DicecamPage.app.view.state.active") != t)
            if grouped and grown:
                break
        assert grouped and grown
    finally:
        running.stop()
