"""A page of a ``wapii view`` bundle in a real browser (Chromium through Playwright), for the browser tests."""

from __future__ import annotations

import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""Debian's Chromium, or None (the browser tests are skipped)."""


class Page:
    """A page on a bundle, with no network outside it and every console error or exception kept."""

    def __init__(self, browser, site: Path, width: int) -> None:
        self.problems: list[str] = []
        self.outside: list[str] = []
        self.page = browser.new_page(viewport={"width": width, "height": 900})
        self.page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                     if m.type in ("error", "warning") else None)
        self.page.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))
        self.page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(site.as_uri() + "/")
                        else (self.outside.append(route.request.url), route.abort()))
        self.site = site

    def open(self, fragment: str = "") -> None:
        self.page.goto((self.site / "index.html").as_uri() + fragment)

    def open_sample(self, sample: str) -> None:
        """Click the listed sample ``sample`` and wait for its page."""
        self.page.locator("#contentArea .srow", has_text=sample).first.click()
        self.page.wait_for_selector("body[data-sample]")

    def check_inert(self) -> None:
        """No request left the bundle and no script raised (console warnings allowed)."""
        exceptions = [problem for problem in self.problems if problem.startswith("exception")]
        assert not self.outside and not exceptions, (self.outside, self.problems)

    def check(self) -> None:
        assert not self.problems, self.problems
        assert not self.outside, f"network requests: {self.outside}"
        overflow = self.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than the window"


@contextmanager
def listed_page(site: Path, width: int = 1280) -> Iterator[Page]:
    """A :class:`Page` on the bundle at ``site`` in a fresh Chromium, opened until its samples are listed;
    the browser is closed afterwards."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            shown = Page(browser, site, width)
            shown.open()
            shown.page.wait_for_selector("body[data-listed]")
            yield shown
        finally:
            browser.close()
