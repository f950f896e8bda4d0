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


def render(page: Path, screenshot: Path, profile: Path) -> dict[str, Any]:
    """Load ``page``; return its console errors, exceptions, network requests and a few DOM facts."""
    browser = Browser(profile)
    try:
        browser.open_page()
        browser.send("Page.navigate", {"url": page.resolve().as_uri()})
        browser.wait_for("Page.loadEventFired")
        facts = browser.send("Runtime.evaluate", {"returnByValue": True, "expression": """({
            tables: document.querySelectorAll('table.metrics[data-kind=paper]').length,
            svgs: document.querySelectorAll('figure svg').length,
            best: document.querySelectorAll('td.best').length,
            rowCount: (document.getElementById('row-count') || {}).textContent || '',
            width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight })"""})
        shot = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
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
            "dom": facts["result"]["value"]}


def test_the_checker_sees_console_errors_exceptions_and_network_use(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><html><body><p>x</p><img src="https://example.invalid/pixel.png">'
                    '<script>console.error("bad thing"); null.boom();</script></body></html>')
    seen = render(page, tmp_path / "bad.png", tmp_path / "profile")
    text = json.dumps(seen["errors"])
    assert "bad thing" in text and "TypeError" in text
    assert seen["external"] == ["https://example.invalid/pixel.png"]


def test_the_html_report_renders_cleanly_and_is_screenshotted(tmp_path):
    runs = []
    for setup in ("full", "argument"):
        out = tmp_path / setup
        done = run_cli("run", "--setup", setup, "--out", str(out), "--quiet", "--limit", "8", cwd=REPO)
        assert done.returncode == 0, done.stderr
        runs.append(str(out))
    page = tmp_path / "report" / "index.html"
    done = run_cli("report", *runs, "--format", "html", "--out", str(page), "--resamples", "200", cwd=REPO)
    assert done.returncode == 0, done.stderr
    screenshot = tmp_path / "report.png"
    seen = render(page, screenshot, tmp_path / "profile")
    assert seen["errors"] == [] and seen["external"] == []
    dom = seen["dom"]
    assert dom["tables"] == 2 and dom["svgs"] == 6 and dom["rowCount"] == "36"
    assert screenshot.read_bytes().startswith(b"\x89PNG") and screenshot.stat().st_size > 10_000
    assert dom["height"] > 1000
