"""What the browser tests need: Debian's chromium and its driver, the marks that skip a
whole module (with the reason) where they are missing, and waiting on the page (the
``browser`` fixture is in tests/conftest.py)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.waiting import WAIT_SECONDS

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                       reason="needs Debian's chromium and chromium-driver "
                              "(apt-get install chromium chromium-driver; .ci/run does it)"),
]


def headless_chromium(*, accept_languages: str | None = None) -> Iterator[Any]:
    """A headless chromium at tablet size (1280x800, en-GB), quit when the caller is done:
    the body of a module-scoped ``browser`` fixture."""
    from selenium import webdriver  # the modules that call this skip without selenium

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                 "--window-size=1280,800", "--lang=en-GB"):
        options.add_argument(flag)
    if accept_languages is not None:
        options.add_experimental_option("prefs", {"intl.accept_languages": accept_languages})
    driver = webdriver.Chrome(service=webdriver.ChromeService(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def wait(browser: Any, condition: Callable[[Any], Any], timeout: float = WAIT_SECONDS) -> Any:
    """Until ``condition(browser)`` is true (and that value); selenium's TimeoutException
    once ``timeout`` seconds have passed without."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    # the pages redraw on every update: an element may go stale mid-check
    return WebDriverWait(browser, timeout, ignored_exceptions=(
        StaleElementReferenceException,)).until(condition)


def shot(browser: Any, name: str) -> None:
    """Keep a picture of the page for a person to look at, in ``$DICECAM_SHOTS`` (only
    where it is set)."""
    folder = os.environ.get("DICECAM_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(Path(folder) / f"{name}.png"))
