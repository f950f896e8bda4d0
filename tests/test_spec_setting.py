"""The ``spec`` setting (the journal edition's): the API's whole OpenAPI document before the
instructions, in the published wording, shown by ``wapii show``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import run_cli_in_process
from wapii_core.base.model import Setup


def test_the_spec_prompt_holds_the_whole_document_before_the_instructions() -> None:
    from wapii_core.base import plugins
    from wapii_core.datasets.loader import load_demo
    from wapii_core.generation.rag import setting_prompt

    demo = load_demo()
    sample = demo.samples[0]
    plain = plugins.adapters.get("axios_js")().prompt(sample, Setup.full, demo)
    spec = setting_prompt(plain, sample, demo, "spec")
    text = demo.specs[sample.api].read_text(encoding="utf-8").strip("\n")
    api = demo.display_names[sample.api]
    assert spec.text == f"OpenAPI specification of the {api} API:\n\n```yaml\n{text}\n```\n\n" + plain.text
    assert spec.instructions.endswith(plain.instructions) and spec.starter == plain.starter
    assert setting_prompt(plain, sample, demo, "unconstrained") == plain


def test_a_json_spec_is_shown_as_yaml(tmp_path: Path) -> None:
    import yaml

    from wapii_core.generation.spec_prompt import spec_block

    document = {"openapi": "3.0.0", "info": {"title": "T", "version": "1"}, "servers": [{"url": "https://t.test"}],
                "paths": {"/a": {"get": {"responses": {"200": {"description": "ok"}}}}}}
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document))
    block = spec_block(path, "T")
    assert block.startswith("OpenAPI specification of the T API:\n\n```yaml\nopenapi: 3.0.0\n")
    assert yaml.safe_load(block.split("```yaml\n")[1].split("\n```")[0]) == document


@pytest.mark.slow
def test_wapii_show_displays_the_prompt_with_the_spec_block(tmp_path: Path) -> None:
    out = tmp_path / "run"
    done = run_cli_in_process("run", "--backend", "oracle", "--dataset", "demo", "--limit", "1", "--setting", "spec",
                              "--quiet", "--out", str(out))
    assert done.returncode == 0, done
    sample = json.loads((out / "results.jsonl").read_text().splitlines()[0])["sample"]
    shown = run_cli_in_process("show", str(out), sample, "--prompt")
    assert shown.returncode == 0, shown
    assert "OpenAPI specification of the" in shown.stdout and "```yaml" in shown.stdout
    assert "paths:" in shown.stdout
