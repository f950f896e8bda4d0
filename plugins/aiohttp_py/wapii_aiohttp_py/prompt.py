"""The prompt a backend continues: instructions in this package's words, then the starter code.

The placeholders are the benchmark's (``{api}``, ``{syntax}``, ``{extra_instructions}``) plus
``{library}``. The starter opens a session at the top level (top-level ``await``, as the harness
runs it) and, per setup, the request's ``async with`` header::

    # <task>
    import aiohttp

    async with aiohttp.ClientSession() as session:
        async with session.                     ← full
        async with session.get('<url>',         ← argument
(``import`` ends after the import line).
"""

from __future__ import annotations

from importlib import resources

from wapii_core.api import Dataset, Prompt, Sample, Setup
from wapii_core.kits.python import py_string
from wapii_core.kits.prompts import workflow_prompt, workflow_starter

from .library import AIOHTTP

SESSION = "async with aiohttp.ClientSession() as session:\n"
ANCHOR = "    async with session."
"""Where the call starts: the constrained region follows it."""
WORKFLOW_NOTES = [
    "The program runs with top-level `await` (as in a notebook or `python -m asyncio`): open one "
    "`aiohttp.ClientSession()` with `async with` and make each request in it with `async with session.<method>(...) as response:`.",
    "Pass a JSON body with `json=` and a form body with `data=` (a dict; an `aiohttp.FormData` for multipart); "
    "aiohttp then encodes the body and sets its `Content-Type` header to match. Query values are strings or numbers: "
    "write a boolean as `'true'` or `'false'`.",
]
"""What the workflow prompt says about aiohttp in particular."""


def starter_code(sample: Sample, setup: Setup) -> str:
    """The code the model continues: the task as a comment, the import, and per setup the call's start
    (``workflow``: nothing more, the model writes the whole program)."""
    if setup is Setup.workflow:
        return workflow_starter(sample, "#", AIOHTTP.import_line)
    comment = "".join(f"# {line}\n" for line in sample.task.splitlines() or [""])
    head = comment + AIOHTTP.import_line
    if setup is Setup.imports:
        return head
    if setup is Setup.full:
        return head + "\n" + SESSION + ANCHOR
    if setup is Setup.argument:
        return head + "\n" + SESSION + ANCHOR + f"{sample.config['method']}({py_string(sample.config['url'])},"
    raise ValueError(f"unknown setup {setup!r}")


def build_prompt(sample: Sample, setup: Setup, dataset: Dataset, extra_instructions: str = "") -> Prompt:
    """The full prompt for one sample: instructions (placeholders filled) followed by the starter code;
    a workflow task gets the workflow prompt (:func:`wapii_core.kits.prompts.workflow_prompt`)."""
    if setup is Setup.workflow:
        return workflow_prompt(starter_code(sample, setup), language="Python", library="the aiohttp library",
                               api=dataset.display_names.get(sample.api, sample.api), notes=WORKFLOW_NOTES,
                               fence="python", call_start=f"async with {AIOHTTP.call_name}.",
                               extra_instructions=extra_instructions)
    template = resources.files("wapii_aiohttp_py").joinpath("prompt_template.md").read_text(encoding="utf-8")
    instructions = template.format(library=AIOHTTP.title, syntax=AIOHTTP.syntax,
                                   api=dataset.display_names.get(sample.api, sample.api),
                                   extra_instructions=extra_instructions)
    starter = starter_code(sample, setup)
    return Prompt(text=instructions + starter, starter=starter, instructions=instructions,
                  call_start=f"async with {AIOHTTP.call_name}.")
