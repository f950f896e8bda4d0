"""Prompts: the benchmark's template (loaded from the dataset) or the package's own, then the starter."""

from __future__ import annotations

from pathlib import Path

import pytest

from wapii_core.api import Dataset, Sample, Setup
from wapii_core.testing import CALL_SETUPS
from wapii_axios_js.adapter import AxiosAdapter
from wapii_axios_js.prompt import starter_code

SAMPLE = Sample(
    api="slack",
    index=3,
    task="Post 'hi' to channel C1.",
    config={"url": "https://slack.com/api/chat.postMessage", "method": "post", "headers": {}},
)


def dataset(prompts_dir: Path | None) -> Dataset:
    return Dataset(
        name="t", samples=[SAMPLE], specs={}, display_names={"slack": "Slack Web"},
        source=Path("dataset.json"), sha256="0", prompts_dir=prompts_dir,
    )


def test_starter_codes() -> None:
    head = "// Post 'hi' to channel C1.\nconst axios = require('axios');\n"
    assert starter_code(SAMPLE, Setup.imports) == head
    assert starter_code(SAMPLE, Setup.full) == head + "\naxios."
    assert starter_code(SAMPLE, Setup.argument) == head + "\naxios.post('https://slack.com/api/chat.postMessage',"


@pytest.mark.parametrize("setup", list(CALL_SETUPS))
def test_benchmark_prompt(shared: Path, setup: Setup) -> None:
    prompts = shared / "wapiibench" / "prompts"
    prompt = AxiosAdapter().prompt(SAMPLE, setup, dataset(prompts))
    template = (prompts / "code_generation_prompt.md").read_text()
    instructions = template.format(syntax="axios.method(url[, config])", api="Slack Web", extra_instructions="")
    assert prompt.instructions == instructions
    assert prompt.starter == starter_code(SAMPLE, setup)
    assert prompt.text == instructions + prompt.starter
    assert "Slack Web" in prompt.text and "axios.method(url[, config])" in prompt.text


def test_own_prompt_without_benchmark_template() -> None:
    prompt = AxiosAdapter().prompt(SAMPLE, Setup.full, dataset(None))
    assert prompt.text.endswith(starter_code(SAMPLE, Setup.full))
    assert "Slack Web" in prompt.instructions and "axios.method(url[, config])" in prompt.instructions
    assert "{" not in prompt.instructions.replace("{syntax}", "")  # every placeholder filled
    assert prompt.instructions.rstrip().endswith("```javascript")
