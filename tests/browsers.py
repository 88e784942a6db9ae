"""What the browser tests need: Debian's chromium and its driver, and the marks that skip
a whole module (with the reason) where they are missing."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")

BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                       reason="needs Debian's chromium and chromium-driver "
                              "(apt-get install chromium chromium-driver; .ci/run does it)"),
]
