"""What a plugin declares decides how the core treats it, never its name (wapii_core.base.declared):
a third-party backend that ``replays`` stored programs reads ``--generations`` as the built-in replay
does, a dataset names the adapter its tasks are written for, and a metric provider that declares
``top_level`` writes summary.json's top-level rows. Through the CLI, as an installed plugin."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from wapii_core.base.plugin_checks import registration_problem

from support import REPO, run_cli

PLUGIN = '''
import json
from pathlib import Path

from wapii_core.api import Generation, Metric, hookimpl, load_dataset_dir


class Stored:
    """Stored programs again, as a third party's backend (its name is not the core's replay)."""

    name = "stored"
    kind = "replays"
    supports_constraints = False

    def __init__(self, options, context):
        lines = Path(options.generations).read_text().splitlines()
        self.codes = {(item["sample"], item.get("draw", 0)): item["code"] for item in map(json.loads, lines)}

    def generate(self, requests):
        for req in requests:
            yield Generation(sample=req.sample.id, draw=req.draw, code=self.codes[(req.sample.id, req.draw)])

    def describe(self):
        return {}


class Rows:
    values = {"rows_judged": Metric("count", "results judged")}
    top_level = True

    def aggregate(self, results, dataset):
        return {"rows_judged": len(list(results))}


def _demo_fetch(data_dir):
    return load_dataset_dir(Path(__file__).parent / "demo_fetch", "demo_fetch")


_demo_fetch.default_adapter = "fetch_js"


@hookimpl
def register_backends(register):
    register("stored", Stored)


@hookimpl
def register_metrics(register):
    register("rows", Rows(), description="a provider of top-level rows", default=False)


@hookimpl
def register_datasets(register):
    register("demo_fetch", _demo_fetch, description="the demo, written for fetch")
'''


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory) -> dict[str, str]:
    site = tmp_path_factory.mktemp("site")
    (site / "wapii_declares.py").write_text(PLUGIN)
    info = site / "wapii_declares-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: wapii-declares\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[wapii]\ndeclares = wapii_declares\n")
    shutil.copytree(REPO / "wapii_core" / "specs" / "demo", site / "demo_fetch")
    return {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


def test_a_backend_kind_is_one_of_the_declared_kinds() -> None:
    class Teleports:
        name, kind, supports_constraints = "teleports", "teleports", False

        def generate(self, requests): ...
        def describe(self): ...

    assert registration_problem("backend", Teleports) == "kind 'teleports' is not one of generates, replays, renders"
    Teleports.kind = "replays"
    assert registration_problem("backend", Teleports) is None


@pytest.mark.slow
def test_a_plugin_backend_replays_on_a_dataset_that_names_its_adapter_into_top_level_rows(plugin_env, tmp_path):
    oracle = tmp_path / "oracle"
    done = run_cli("run", "--dataset", "demo_fetch", "--limit", "3", "--out", str(oracle), "--quiet", env=plugin_env)
    assert done.returncode == 0, done.stderr
    assert json.loads((oracle / "run.json").read_text())["adapter"] == "fetch_js"  # the dataset's, unnamed
    generations = tmp_path / "generations.jsonl"
    generations.write_text((oracle / "generations.jsonl").read_text())
    out = tmp_path / "stored"
    done = run_cli("run", "--dataset", "demo_fetch", "--limit", "3", "--backend", "stored", "--generations",
                   str(generations), "--setting", "constrained", "--no-default-metrics", "--metric", "rows",
                   "--out", str(out), "--quiet", env=plugin_env)
    assert done.returncode == 0, done.stderr  # --generations and a constrained setting: what a replaying backend takes
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rows_judged"] == 3 and "rows" not in summary.get("metrics", {})  # top level, not metrics.rows
    assert [json.loads(line)["verdict"] for line in (out / "results.jsonl").read_text().splitlines()] == ["correct"] * 3
