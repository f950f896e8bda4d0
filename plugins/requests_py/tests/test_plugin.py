"""The distribution registers two protocol-conforming adapters through the `wapii` entry-point group."""

from __future__ import annotations

import pytest

from wapii_core.api import Adapter, WapiiError
from wapii_core.testing import adapters, default_mode
from wapii_requests_py.adapter import PythonAdapter


@pytest.mark.parametrize("name, module", [("requests_py", "requests"), ("httpx_py", "httpx")])
def test_registered_through_the_entry_point(name: str, module: str) -> None:
    entry = adapters.entries()[name]
    assert entry.plugin == "requests_py" and entry.description
    adapter = adapters.get(name)()
    assert isinstance(adapter, PythonAdapter) and isinstance(adapter, Adapter)
    assert (adapter.name, adapter.library.module) == (name, module)
    assert default_mode(adapter) == "wire"
    assert default_mode(adapters.get("axios_js")()) == "reference"


def test_options_from_the_environment(monkeypatch) -> None:
    monkeypatch.delenv("WAPII_REQUESTS_PY_WORKERS", raising=False)
    monkeypatch.setenv("WAPII_HTTPX_PY_WORKERS", "3")
    monkeypatch.setenv("WAPII_HTTPX_PY_TIMEOUT", "0.5")
    adapter = adapters.get("httpx_py")()
    assert (adapter.workers, adapter.timeout_s) == (3, 0.5)
    assert adapter.execute([]) == []
    assert adapters.get("requests_py")().workers is None  # each adapter reads its own variables
    monkeypatch.setenv("WAPII_HTTPX_PY_WORKERS", "many")
    with pytest.raises(WapiiError, match="WAPII_HTTPX_PY_WORKERS='many': expected a whole number"):
        adapters.get("httpx_py")()


def test_a_run_without_a_mode_is_judged_in_the_adapters_default_and_says_so(tmp_path) -> None:
    import json

    from wapii_core.testing import RunConfig, run

    summary = run(RunConfig(adapter="httpx_py", backend="oracle", limit=3), tmp_path / "run")
    assert summary.mode == "wire" and summary.overall["Correct implementations (t)"] == 1.0
    assert json.loads((tmp_path / "run" / "run.json").read_text())["mode"] == "wire"
    assert "comparison mode `wire`" in (tmp_path / "run" / "report.md").read_text()
    results = [json.loads(line) for line in (tmp_path / "run" / "results.jsonl").read_text().splitlines()]
    assert {r["mode"] for r in results} == {"wire"} and all("sent_params" in r["request"] or "params" not in r["request"]
                                                           for r in results)
