"""The prompt a backend continues: instructions, then the starter code of the chosen setup."""

from __future__ import annotations

from importlib import resources

from wapii_core.api import Dataset, Prompt, Sample, Setup
from wapii_core.kits.node import js_string
from wapii_core.kits.prompts import (
    context_prompt, context_starter, context_template, workflow_prompt, workflow_starter,
)

CONTEXT_TEMPLATE = "context_prompt_template.md"
"""The published prompt for tasks with code context, worded for fetch instead of Axios."""
SYNTAX = "fetch(url[, options])"
"""How the prompt describes the call."""
WORKFLOW_NOTES = [
    "The program runs as a Node.js script, where `fetch` is a global; `await` each answer before using it.",
    "`fetch` resolves with any status: check `response.status` yourself, and read the answer with `await response.json()`.",
    "`fetch` sends a body as given: pass a JSON body through `JSON.stringify(...)` and set the `Content-Type` header to "
    "its media type; pass a form as `new URLSearchParams(...)` and a multipart body as a `FormData`.",
]
"""What the workflow prompt says about fetch in particular."""


def starter_code(sample: Sample, setup: Setup) -> str:
    """The code the model continues: the task as a comment and, per setup, the call's start.

    ``import`` and ``workflow``: the comment only (fetch is a global); ``full``: up to ``fetch(``; ``argument``: up
    to the URL literal (the query, appended with ``+``, the method and the rest follow). A task with
    code context continues its real code, its ``axios.`` replaced by ``fetch(``
    (:func:`wapii_core.kits.prompts.context_starter`; a ``template_url`` is given in backticks).
    """
    if setup is Setup.workflow:
        return workflow_starter(sample, "//", "")
    if sample.context is not None:
        return context_starter(sample, setup, "fetch(", lambda url: url)
    head = f"// {sample.task}\n"
    if setup is Setup.imports:
        return head
    if setup is Setup.full:
        return head + "\nfetch("
    if setup is Setup.argument:
        return head + f"\nfetch({js_string(sample.config['url'])}"
    raise ValueError(f"unknown setup {setup!r}")


def instructions_template() -> str:
    """This package's wording (the benchmark's template is written for axios)."""
    return resources.files("wapii_fetch_js").joinpath("prompt_template.md").read_text(encoding="utf-8")


def build_prompt(sample: Sample, setup: Setup, dataset: Dataset, extra_instructions: str = "") -> Prompt:
    """The full prompt for one sample: instructions (placeholders filled) followed by the starter code;
    a task with code context gets this package's context prompt (the dataset's, worded for fetch); a
    workflow task the workflow prompt (:func:`wapii_core.kits.prompts.workflow_prompt`, with fetch's own notes)."""
    if setup is Setup.workflow:
        return workflow_prompt(starter_code(sample, setup), language="JavaScript", library="the built-in `fetch` function",
                               api=dataset.display_names.get(sample.api, sample.api), notes=WORKFLOW_NOTES,
                               fence="javascript", call_start="fetch(", extra_instructions=extra_instructions)
    if sample.context is not None:
        template = resources.files("wapii_fetch_js").joinpath(CONTEXT_TEMPLATE)
        with resources.as_file(template) as path:
            text = context_template(dataset.prompts_dir, path)
        return context_prompt(sample, setup, text, dataset.display_names.get(sample.api, sample.api),
                              starter_code(sample, setup), "fetch(", extra_instructions)
    instructions = instructions_template().format(
        syntax=SYNTAX,
        api=dataset.display_names.get(sample.api, sample.api),
        extra_instructions=extra_instructions,
    )
    starter = starter_code(sample, setup)
    return Prompt(text=instructions + starter, starter=starter, instructions=instructions, call_start="fetch(")
