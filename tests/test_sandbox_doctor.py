"""``wapii doctor``: the layer report of every sandbox, as text and JSON, and its exit code."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from wapii_core.cli import doctor
from wapii_core.sandbox import bwrap, landlock


@pytest.fixture
def app() -> typer.Typer:
    instance = typer.Typer()
    instance.command("doctor")(doctor.doctor_command)

    @instance.callback()
    def main() -> None:
        """A one-command app (``doctor`` stays a sub-command)."""

    return instance


def test_the_report_lists_every_layer_of_every_sandbox(app: typer.Typer) -> None:
    result = CliRunner().invoke(app, ["doctor", "--json"])
    data = json.loads(result.output)
    python = data["reports"]["python sandbox"]
    names = [layer["name"] for layer in python["layers"]]
    assert names[0] == "bubblewrap" and "privilege drop" in names  # without bubblewrap, Landlock comes between
    assert "seccomp" in [layer["name"] for layer in python["layers"]]
    complete = all(doctor.complete(report) for report in data["reports"].values())
    assert result.exit_code == (0 if complete else 1)
    node = data["reports"].get("adapter axios_js")
    if node is not None and "error" not in node:
        assert {"node permission model", "vm context"} <= {layer["name"] for layer in node["layers"]}


def test_a_missing_layer_is_named_with_what_it_leaves_exposed(app: typer.Typer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    result = CliRunner().invoke(app, ["doctor", "--adapter", "axios_js"])
    assert result.exit_code == 1
    assert "[OFF] bubblewrap: bubblewrap is not installed" in result.output
    if landlock.unavailable():
        assert "not isolated: the host file system (reads)" in result.output
        assert "[OFF] landlock (snippets)" in result.output
    else:  # Landlock takes over the file system's isolation: what only bubblewrap gives is named
        assert "not isolated: the host's PID, network and IPC namespaces" in result.output
        assert "[ok ] landlock (worker)" in result.output and "[ok ] landlock (snippets)" in result.output
    assert "incomplete isolation: python sandbox" in result.output


def test_without_landlock_the_audit_hook_is_named_advisory(app: typer.Typer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(bwrap.BWRAP_ENV, "")
    monkeypatch.setenv(landlock.ENV, "0")
    result = CliRunner().invoke(app, ["doctor", "--adapter", "axios_js"])
    assert result.exit_code == 1
    assert "[OFF] landlock (snippets): disabled by WAPII_LANDLOCK=0" in result.output
    assert "refused only by the audit hook, in the snippet's own process: advisory" in result.output
    assert "[OFF] landlock (worker): disabled by WAPII_LANDLOCK=0" in result.output
    assert "not isolated: the host file system (reads)" in result.output
