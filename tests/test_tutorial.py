"""The tutorial's first section runs as written: each command of its first code block, in an empty
directory (what a fresh clone's working directory holds of runs: nothing), exits 0, and what it
says it writes is there."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from support import REPO, run_cli

pytestmark = pytest.mark.slow  # three commands in fresh processes: seconds


def first_section_commands() -> list[list[str]]:
    """The commands of the first ``bash`` block under the tutorial's first ``##`` heading (comments cut)."""
    text = (REPO / "docs" / "tutorial.md").read_text(encoding="utf-8")
    section = text.split("\n## ", 2)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block, "the tutorial's first section has no bash block"
    return [shlex.split(line, comments=True) for line in block.group(1).splitlines() if line.strip()]


def test_the_tutorials_first_section_runs_as_written(tmp_path: Path) -> None:
    commands = first_section_commands()
    assert [c[:2] for c in commands] == [["wapii", "run"], ["wapii", "show"], ["wapii", "view"]]
    for command in commands:
        # BROWSER=true: the page `wapii view` opens is opened by a command that does nothing
        done = run_cli(*command[1:], cwd=tmp_path, env={"BROWSER": "true"})
        assert done.returncode == 0, f"{shlex.join(command)}: {done.stderr}"
        if command[1] == "show":
            assert "verdict: correct" in done.stdout and "Expected vs captured request" in done.stdout
    assert (tmp_path / "runs" / "demo-axios_js-oracle-full" / "summary.json").is_file()
    site = Path(tmp_path, commands[2][commands[2].index("--bundle") + 1])
    assert (site / "index.html").is_file() and (site / "data" / "meta.js").is_file()
