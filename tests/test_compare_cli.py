"""``wapii compare``: one backend over several adapters, the side-by-side tables and the differences."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from support import adapter_capabilities
from wapii_core.cli import compare, report
from wapii_core.run.runner import load_dataset

pytest.importorskip("wapii_requests_py")

DEMO = load_dataset("demo", None)
HAS_NODE = shutil.which("node") is not None


def cli() -> typer.Typer:
    app = typer.Typer()
    app.command("compare")(compare.compare_command)
    app.command("report")(report.report_command)
    return app


def invoke(*args: str) -> str:
    result = CliRunner().invoke(cli(), list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def table(compared: dict, title: str) -> dict[str, list]:
    found = next(t for t in compared["tables"] if t["title"] == title)
    return {"columns": found["columns"], **{row: [c["value"] for c in cells] for row, cells in found["rows"].items()}}


@pytest.mark.slow
def test_oracle_scores_every_library_fully_and_no_task_differs(tmp_path: Path) -> None:
    adapters = [name for name, capabilities in adapter_capabilities().items()
                if HAS_NODE or capabilities.language != "javascript"]  # every installed library
    out = tmp_path / "cmp"
    invoke("compare", *[a for name in adapters for a in ("--adapter", name)], "--backend", "oracle",
           "--out", str(out), "--resamples", "0", "--quiet")
    compared = json.loads((out / "compare.json").read_text())
    overall = table(compared, "Full completion")
    assert [c.rsplit(" · ", 1)[-1] for c in overall["columns"]] == adapters
    assert overall["Correct implementations (t)"] == [1.0] * len(adapters)
    assert overall["Executable implementations (t)"] == [1.0] * len(adapters)
    assert all(d["tasks"] == [] for d in compared["differences"])
    assert len(compared["differences"]) == len(adapters) * (len(adapters) - 1)
    assert {r["run"]["mode"] for r in compared["runs"]} == {"wire"}
    assert "larchwood — Full completion" in [t["title"] for t in compared["tables"]]
    assert "comparison mode `wire`" in (out / "compare.md").read_text()


def oracle_program(adapter_name: str, sample) -> str:
    from wapii_core.base import plugins
    from wapii_core.base.model import Setup

    return plugins.adapters.get(adapter_name)().render(sample.config, Setup.full, sample)


def write_generations(path: Path, adapter_name: str, broken: dict[str, str]) -> None:
    """The oracle's programs, with the programs of the ``broken`` tasks replaced."""
    lines = [json.dumps({"sample": s.id, "code": broken.get(s.id, oracle_program(adapter_name, s))}) for s in DEMO.samples]
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.slow
def test_replay_tables_and_differences_match_the_programs(tmp_path: Path) -> None:
    no_call = "# nothing\nimport {lib}\n\nprint('no call')\n"
    write_generations(tmp_path / "requests.jsonl", "requests_py", {
        "larchwood/0": no_call.format(lib="requests"),
        "larchwood/3": "import requests\nrequests.get('https://api.larchwood-library.example/v2/books/bk_1',"
                       " headers={'X-Api-Key': '<key>'})\n"})  # wrong path value, missing Accept-Language
    write_generations(tmp_path / "httpx.jsonl", "httpx_py", {"larchwood/1": no_call.format(lib="httpx")})
    out = tmp_path / "cmp"
    invoke("compare", "--adapter", "requests_py", "--adapter", "httpx_py", "--backend", "replay",
           "--generations", f"requests_py={tmp_path / 'requests.jsonl'}",
           "--generations", f"httpx_py={tmp_path / 'httpx.jsonl'}", "--out", str(out), "--resamples", "0", "--quiet")
    compared = json.loads((out / "compare.json").read_text())
    overall = table(compared, "Full completion")
    assert overall["Correct implementations (t)"] == pytest.approx([24 / 26, 25 / 26])
    assert overall["Executable implementations (t)"] == pytest.approx([25 / 26, 25 / 26])
    assert overall["Total errors"] == [1, 1] and overall["Incomplete implementations"] == [1, 1]
    differences = {(d["solved_by"], d["not_by"]): d["tasks"] for d in compared["differences"]}
    assert differences == {("requests_py", "httpx_py"): ["larchwood/1"],
                           ("httpx_py", "requests_py"): ["larchwood/0", "larchwood/3"]}
    markdown = (out / "compare.md").read_text()
    assert "solved by **httpx_py**, not by **requests_py** (2): `larchwood/0`, `larchwood/3`" in markdown
    why = {(d["solved_by"], d["not_by"]): d["why"] for d in compared["differences"]}
    assert why[("httpx_py", "requests_py")]["larchwood/0"].startswith("did not run: no_request")
    assert "path_params.bookId wrong: sent 'https://api.larchwood-library.example/v2/books/bk_1', expected " \
        in why[("httpx_py", "requests_py")]["larchwood/3"]
    assert "headers.Accept-Language missing (expected " in why[("httpx_py", "requests_py")]["larchwood/3"]
    assert "  - `larchwood/3`: " in markdown

    # the terminal gets a rendered table, not Markdown
    shown = invoke("compare", "--adapter", "requests_py", "--adapter", "httpx_py", "--backend", "replay",
                   "--generations", f"requests_py={tmp_path / 'requests.jsonl'}",
                   "--generations", f"httpx_py={tmp_path / 'httpx.jsonl'}", "--out", str(out), "--resamples", "0")
    assert "**" not in shown and "| Correct implementations" not in shown
    assert "What requests_py got wrong" in shown and "larchwood/3" in shown

    # `wapii report` on the same run directories gives the same side-by-side table
    reported = invoke("report", str(out / "requests_py-full"), str(out / "httpx_py-full"), "--format", "md",
                      "--resamples", "0")
    assert section(reported, "## Full completion") == section(markdown, "## Full completion")
    assert "| Correct implementations (t) | 92.3 | **96.2** |" in section(markdown, "## Full completion")


def section(markdown: str, heading: str) -> str:
    """The text from ``heading`` to the next heading."""
    start = markdown.index(heading + "\n")
    end = markdown.find("\n## ", start + len(heading))
    return markdown[start:end if end != -1 else None]


def test_generations_must_name_their_adapter_when_there_are_several() -> None:
    pair = ["requests_py", "httpx_py"]
    assert compare.parse_generations(["x.jsonl"], pair) == {name: Path("x.jsonl") for name in pair}
    with pytest.raises(Exception, match="ADAPTER=PATH"):
        compare.parse_generations(["a.jsonl", "b.jsonl"], pair)


@pytest.mark.slow
def test_a_difference_says_what_was_sent_and_what_was_expected(tmp_path: Path) -> None:
    python_true = oracle_program("requests_py", DEMO.samples[0]).replace("'available': 'true'", "'available': True")
    write_generations(tmp_path / "requests.jsonl", "requests_py", {"larchwood/0": python_true})
    write_generations(tmp_path / "httpx.jsonl", "httpx_py", {})
    out = tmp_path / "cmp"
    invoke("compare", "--adapter", "requests_py", "--adapter", "httpx_py", "--backend", "replay",
           "--generations", f"requests_py={tmp_path / 'requests.jsonl'}",
           "--generations", f"httpx_py={tmp_path / 'httpx.jsonl'}", "--out", str(out), "--resamples", "0", "--quiet")
    compared = json.loads((out / "compare.json").read_text())
    why = {(d["solved_by"], d["not_by"]): d["why"] for d in compared["differences"]}
    assert why[("httpx_py", "requests_py")] == {"larchwood/0": "params.available: sent 'True', expected 'true'"}
