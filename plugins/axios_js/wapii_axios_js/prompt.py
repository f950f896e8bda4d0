"""The prompt a backend continues: instructions, then the starter code of the chosen setup."""

from __future__ import annotations

from importlib import resources

from wapii_core.api import Dataset, Prompt, Sample, Setup
from wapii_core.kits.node import js_string
from wapii_core.kits.prompts import (
    context_prompt, context_starter, context_template, workflow_prompt, workflow_starter,
)

BENCHMARK_TEMPLATE = "code_generation_prompt.md"
"""The benchmark's own prompt template, a file of the dataset's ``prompts_dir``."""
SYNTAX = "axios.method(url[, config])"
"""How the prompt describes the call (the paper's choice; ``axios.request(config)`` is the alternative)."""

IMPORT_LINE = "const axios = require('axios');\n"
WORKFLOW_NOTES = [
    "The program runs as a Node.js script: load a module with `require`, and `await` each answer before using it.",
    "Axios rejects the promise of an answer with a status of 400 or above; the answer is then `error.response`.",
    "When a request body is not JSON, set the `Content-Type` header to the body's media type; Axios then encodes the body to match.",
]
"""What the workflow prompt says about axios in particular."""


def starter_code(sample: Sample, setup: Setup) -> str:
    """The code the model continues: the task as a comment, the import, and per setup the call's start.

    ``workflow``: the task as a comment and the import (the model writes the whole program);
    ``import``: the import only; ``full``: up to ``axios.``; ``argument``: up to the URL argument.
    A task with code context continues its real code instead (:func:`wapii_core.kits.prompts.context_starter`;
    a ``template_url`` is given in backticks).
    """
    if setup is Setup.workflow:
        return workflow_starter(sample, "//", IMPORT_LINE)
    if sample.context is not None:
        return context_starter(sample, setup, "axios.", lambda url: f"{sample.config['method']}({url},")
    head = f"// {sample.task}\n{IMPORT_LINE}"
    if setup is Setup.imports:
        return head
    if setup is Setup.full:
        return head + "\naxios."
    if setup is Setup.argument:
        return head + f"\naxios.{sample.config['method']}('{sample.config['url']}',"
    raise ValueError(f"unknown setup {setup!r}")


def instructions_template(dataset: Dataset) -> str:
    """The benchmark's template when the dataset ships one, else this package's own wording."""
    if dataset.prompts_dir is not None:
        return (dataset.prompts_dir / BENCHMARK_TEMPLATE).read_text(encoding="utf-8")
    return resources.files("wapii_axios_js").joinpath("prompt_template.md").read_text(encoding="utf-8")


def build_prompt(sample: Sample, setup: Setup, dataset: Dataset, extra_instructions: str = "") -> Prompt:
    """The full prompt for one sample: instructions (placeholders filled) followed by the starter code;
    a task with code context gets the dataset's context prompt; a workflow task the workflow prompt
    (:func:`wapii_core.kits.prompts.workflow_prompt`, with axios's own notes)."""
    if setup is Setup.workflow:
        return workflow_prompt(starter_code(sample, setup), language="JavaScript", library="the Axios HTTP client",
                               api=dataset.display_names.get(sample.api, sample.api), notes=WORKFLOW_NOTES,
                               fence="javascript", call_start="axios.", extra_instructions=extra_instructions)
    if sample.context is not None:
        return context_prompt(sample, setup, context_template(dataset.prompts_dir),
                              dataset.display_names.get(sample.api, sample.api), starter_code(sample, setup),
                              "axios.", extra_instructions)
    instructions = instructions_template(dataset).format(
        syntax=SYNTAX,
        api=dataset.display_names.get(sample.api, sample.api),
        extra_instructions=extra_instructions,
    )
    starter = starter_code(sample, setup)
    return Prompt(text=instructions + starter, starter=starter, instructions=instructions, call_start="axios.")
