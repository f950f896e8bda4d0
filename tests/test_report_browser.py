"""The HTML report in a real browser: headless Chromium renders it with no console error, no
exception and no network request, runs its script, and a screenshot is taken.

Chromium is driven through the DevTools protocol over a pipe (``--remote-debugging-pipe``: JSON
messages separated by NUL bytes on file descriptors 3 and 4), so no websocket client or port is
needed. Needs the Debian package ``chromium`` (``.ci/run`` installs it); skipped where it is missing.
"""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from support import REPO, run_cli

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (apt-get install -y chromium)")

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
         "--disable-dev-shm-usage", "--remote-debugging-pipe"]


class Browser:
    """A headless Chromium and one page, spoken to with DevTools protocol messages over a pipe."""

    def __init__(self, profile: Path, timeout: float = 60) -> None:
        self.timeout = timeout
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank"]
        # fd 3: commands to the browser, fd 4: its replies and events
        wrapper = f'exec "$@" 3<&{to_browser_r} 4>&{from_browser_w}'
        profile.mkdir(parents=True, exist_ok=True)
        self.log = profile / "chromium.log"  # a file, not a pipe: a chatty browser must never block on it
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(["bash", "-c", wrapper, "chromium", *command],
                                            pass_fds=(to_browser_r, from_browser_w),
                                            stdout=subprocess.DEVNULL, stderr=log)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.session: str | None = None

    def send(self, method: str, params: dict[str, Any] | None = None, session: bool = True) -> dict[str, Any]:
        """Send one command and wait for its reply (events meanwhile are kept in ``events``)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._receive()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str) -> dict[str, Any]:
        """Wait for an event of this page (or return one already received)."""
        for event in self.events:
            if event.get("method") == method:
                return event
        while True:
            event = self._receive()
            self.events.append(event)
            if event.get("method") == method:
                return event

    def _receive(self) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self._from_browser], [], [], max(0.0, left))
            if not ready:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError(f"Chromium exited: {self.log.read_text(errors='replace')[-2000:]}")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def open_page(self) -> None:
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Runtime", "Log", "Page", "Network"):
            self.send(f"{domain}.enable")

    def close(self) -> None:
        try:
            self.send("Browser.close", session=False)
        except (RuntimeError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)


SCREENSHOTS = REPO / "build" / "screenshots"
"""Where the report test leaves its screenshots for a person to look at (ignored by git)."""


def render(page: Path, screenshot: Path, profile: Path, width: int = 1280, then: str | None = None) -> dict[str, Any]:
    """Load ``page`` in a viewport ``width`` pixels wide (390: a phone, emulated as a mobile device);
    return its console errors, exceptions, network requests, a few DOM facts and (``then``) the value
    of one more expression evaluated after them."""
    browser = Browser(profile)
    try:
        browser.open_page()
        browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": 900 if width > 600 else 844,
                                                            "deviceScaleFactor": 1, "mobile": width <= 600})
        browser.send("Page.navigate", {"url": page.resolve().as_uri()})
        browser.wait_for("Page.loadEventFired")
        facts = browser.send("Runtime.evaluate", {"returnByValue": True, "expression": """({
            tables: document.querySelectorAll('table.metrics[data-kind=paper]').length,
            allTables: document.querySelectorAll('table.metrics').length,
            svgs: document.querySelectorAll('figure svg').length,
            best: document.querySelectorAll('td.best').length,
            viewport: window.innerWidth,
            width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight,
            unreachable: Array.prototype.filter.call(document.querySelectorAll('table.metrics'), function (t) {
                var box = t.parentElement, style = getComputedStyle(box);
                var fits = box.getBoundingClientRect().right <= window.innerWidth + 1;
                var scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
                return !(fits && (scrolls || t.scrollWidth <= box.clientWidth + 1));
            }).length,
            unlabelled: Array.prototype.filter.call(document.querySelectorAll('figure'), function (f) {
                var caption = f.querySelector('figcaption'), svg = f.querySelector('svg');
                return !caption || !caption.textContent.trim() || !svg || !svg.getAttribute('aria-label');
            }).length,
            narrowestPlot: Math.min.apply(null, Array.prototype.map.call(document.querySelectorAll('figure svg'),
                function (svg) { return svg.getBoundingClientRect().width; })) })"""})
        after = browser.send("Runtime.evaluate", {"returnByValue": True, "expression": then}) if then else None
        shot = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        screenshot.write_bytes(base64.b64decode(shot["data"]))
        events = browser.events
    finally:
        browser.close()
    problems = [e["params"]["args"] for e in events
                if e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] in ("error", "assert")]
    problems += [e["params"]["exceptionDetails"] for e in events if e.get("method") == "Runtime.exceptionThrown"]
    problems += [e["params"]["entry"] for e in events
                 if e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error"]
    requests = [e["params"]["request"]["url"] for e in events if e.get("method") == "Network.requestWillBeSent"]
    return {"errors": problems, "external": [u for u in requests if not u.startswith(("file:", "data:"))],
            "dom": facts["result"]["value"], "then": after["result"].get("value") if after else None}


def test_the_checker_sees_console_errors_exceptions_and_network_use(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html><body><p>x</p><img src="https://example.invalid/pixel.png">'
                    '<script>console.error("bad thing"); null.boom();</script></body></html>')
    seen = render(page, tmp_path / "bad.png", tmp_path / "profile")
    text = json.dumps(seen["errors"])
    assert "bad thing" in text and "TypeError" in text
    assert seen["external"] == ["https://example.invalid/pixel.png"]


def four_runs(tmp_path: Path) -> list[str]:
    """Demo runs of different sizes and both setups: 26, 8 and 3 samples (full), 8 (argument)."""
    runs = []
    for setup, limit in (("full", "26"), ("full", "8"), ("full", "3"), ("argument", "8")):
        out = tmp_path / f"{setup}-{limit}"
        done = run_cli("run", "--setup", setup, "--out", str(out), "--quiet", "--limit", limit, cwd=REPO)
        assert done.returncode == 0, done.stderr
        runs.append(str(out))
    return runs


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 390])
def test_the_html_report_renders_cleanly_at_desktop_and_phone_width(tmp_path, width):
    runs = four_runs(tmp_path)
    page = tmp_path / "report" / "index.html"
    done = run_cli("report", *runs, "--out", str(page), "--resamples", "200", cwd=REPO)
    assert done.returncode == 0, done.stderr
    screenshot = SCREENSHOTS / f"report-{width}px.png"
    seen = render(page, screenshot, tmp_path / "profile", width=width)
    assert seen["errors"] == [] and seen["external"] == []
    dom = seen["dom"]
    assert dom["tables"] == 2 and dom["svgs"] == 6
    assert dom["width"] <= dom["viewport"], "the page body scrolls sideways"
    assert dom["unreachable"] == 0 and dom["unlabelled"] == 0
    assert dom["narrowestPlot"] >= 500  # plots keep their size (and their text legible), scrolling if need be
    assert screenshot.read_bytes().startswith(b"\x89PNG") and screenshot.stat().st_size > 10_000
    assert dom["height"] > 1000


@pytest.mark.slow
def test_the_leaderboard_page_sorts_and_fits_a_phone(tmp_path):
    runs = four_runs(tmp_path)
    page = tmp_path / "board" / "index.html"
    done = run_cli("report", "--leaderboard", *runs, "--out", str(page), "--resamples", "200", cwd=REPO)
    assert done.returncode == 0, done.stderr
    order = """(function () {
        var table = document.querySelector('table.leaderboard'), head = table.querySelectorAll('thead th');
        function column(j) { return Array.prototype.map.call(table.tBodies[0].rows, function (r) {
            return r.cells[j].getAttribute('data-value'); }); }
        var samples = head.length - 1, before = column(samples);
        head[samples].click();
        var down = column(samples);
        head[samples].click();
        return {before: before, down: down, up: column(samples)};
    })()"""
    seen = render(page, SCREENSHOTS / "leaderboard-390px.png", tmp_path / "profile", width=390, then=order)
    assert seen["errors"] == [] and seen["external"] == []
    sorted_by = seen["then"]  # the full-completion board: runs of 26, 8 and 3 samples, all 100 % correct
    assert sorted(sorted_by["before"], key=float) == sorted(sorted_by["down"], key=float)
    assert [float(v) for v in sorted_by["down"]] == [26, 8, 3] and [float(v) for v in sorted_by["up"]] == [3, 8, 26]
    dom = seen["dom"]
    assert dom["allTables"] == 2 and dom["width"] <= dom["viewport"] and dom["unreachable"] == 0
    assert dom["unlabelled"] == 0
