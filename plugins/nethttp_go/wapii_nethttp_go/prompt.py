"""The prompt a backend continues: instructions, then the starter code of the chosen setup."""

from __future__ import annotations

from importlib import resources

from wapii_core.api import Dataset, Prompt, Sample, Setup

from .golit import go_string

SYNTAX = "http.NewRequest(method, url, body)"
CALL_START = "http.NewRequest("
HEAD = "package main\n\nimport \"net/http\"\n"


def starter_code(sample: Sample, setup: Setup) -> str:
    """The code the model continues: the task as a comment, the package and its import and, per setup,
    the call's start.

    ``import``: up to the import; ``full``: up to ``req, err := http.NewRequest(`` inside ``main``;
    ``argument``: also the method and the URL literal (the query, appended with ``+``, and the body follow);
    ``workflow``: up to the import, each line of the task a comment line (the model writes the whole program).
    """
    if setup is Setup.workflow:
        return "".join(f"// {line}\n" for line in sample.task.splitlines() or [""]) + HEAD
    head = f"// {sample.task}\n{HEAD}"
    if setup is Setup.imports:
        return head
    opened = head + "\nfunc main() {\n\treq, err := " + CALL_START
    if setup is Setup.full:
        return opened
    if setup is Setup.argument:
        return opened + f"{go_string(str(sample.config['method']).upper())}, {go_string(sample.config['url'])}"
    raise ValueError(f"unknown setup {setup!r}")


def instructions_template(setup: Setup = Setup.full) -> str:
    """The instructions of ``setup``'s prompt (one request, or a whole workflow program)."""
    name = "prompt_workflow.md" if setup is Setup.workflow else "prompt_template.md"
    return resources.files("wapii_nethttp_go").joinpath(name).read_text(encoding="utf-8")


def build_prompt(sample: Sample, setup: Setup, dataset: Dataset, extra_instructions: str = "") -> Prompt:
    """The full prompt for one sample: instructions (placeholders filled) followed by the starter code."""
    instructions = instructions_template(setup).format(
        syntax=SYNTAX, api=dataset.display_names.get(sample.api, sample.api), extra_instructions=extra_instructions)
    starter = starter_code(sample, setup)
    return Prompt(text=instructions + starter, starter=starter, instructions=instructions, call_start=CALL_START)
