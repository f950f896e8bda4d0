"""The axios library's side of the JavaScript runtime: its pinned packages, and Node missing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wapii_axios_js.adapter import AxiosAdapter
from wapii_axios_js.runtime import js_dir
from wapii_core.kits.sandbox import MissingToolError


def test_shipped_lock_pins_the_reference_versions() -> None:
    lock = json.loads((js_dir() / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/axios"]["version"] == "1.21.1"
    assert lock["packages"]["node_modules/axios-mock-adapter"]["version"] == "2.1.0"
    manifest = json.loads((js_dir() / "package.json").read_text())
    sandbox_stand_ins = {"buffer": "6.0.3", "events": "3.3.0", "path-browserify": "1.0.1", "querystring-es3": "0.2.1",
                         "whatwg-url": "14.2.0"}  # pure-JS modules the runtime's contexts load (RUNTIME_PACKAGES)
    assert manifest["dependencies"] == {"axios": "1.21.1", "axios-mock-adapter": "2.1.0", **sandbox_stand_ins}


def test_missing_node_is_a_missing_tool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WAPII_NODE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(MissingToolError, match="Node.js"):
        AxiosAdapter().execute(["axios.get('u');\n"])
