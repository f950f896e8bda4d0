"""A page of a ``wapii view`` bundle in a real browser (Chromium through Playwright), for the browser tests."""

from __future__ import annotations

from pathlib import Path


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

    def check(self) -> None:
        assert not self.problems, self.problems
        assert not self.outside, f"network requests: {self.outside}"
        overflow = self.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page is {overflow}px wider than the window"
