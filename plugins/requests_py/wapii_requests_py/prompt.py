"""The prompt a backend continues: instructions in this package's words, then the starter code.

The placeholders are the benchmark's (``{api}``, ``{syntax}``, ``{extra_instructions}``) plus
``{library}``; the three setups are the benchmark's: ``full`` ends with ``requests.``, ``argument``
with ``requests.<method>('<url>',``, ``import`` after the import line.
"""

from __future__ import annotations

from importlib import resources

from wapii_core.api import Dataset, Prompt, Sample, Setup
from wapii_core.kits.python import PythonLibrary, py_string
from wapii_core.kits.prompts import workflow_prompt, workflow_starter


def starter_code(library: PythonLibrary, sample: Sample, setup: Setup) -> str:
    """The code the model continues: the task as a comment, the import, and per setup the call's start
    (``workflow``: nothing more, the model writes the whole program)."""
    if setup is Setup.workflow:
        return workflow_starter(sample, "#", library.import_line)
    comment = "".join(f"# {line}\n" for line in sample.task.splitlines() or [""])
    head = comment + library.import_line
    if setup is Setup.imports:
        return head
    if setup is Setup.full:
        return head + f"\n{library.module}."
    if setup is Setup.argument:
        return head + f"\n{library.module}.{sample.config['method']}({py_string(sample.config['url'])},"
    raise ValueError(f"unknown setup {setup!r}")


def instructions_template() -> str:
    """This package's wording (the benchmark's own template names axios and JavaScript)."""
    return resources.files("wapii_requests_py").joinpath("prompt_template.md").read_text(encoding="utf-8")


def build_prompt(library: PythonLibrary, sample: Sample, setup: Setup, dataset: Dataset,
                 extra_instructions: str = "") -> Prompt:
    """The full prompt for one sample: instructions (placeholders filled) followed by the starter code;
    a workflow task gets the workflow prompt (:func:`wapii_core.kits.prompts.workflow_prompt`)."""
    if setup is Setup.workflow:
        notes = [f"Pass a JSON body with `json=`, a form body with `data=` and a multipart body with `files=`; "
                 f"{library.title} then encodes the body and sets its `Content-Type` header to match."]
        return workflow_prompt(starter_code(library, sample, setup), language="Python", library=f"the {library.title} library",
                               api=dataset.display_names.get(sample.api, sample.api), notes=notes, fence="python",
                               call_start=f"{library.call_name}.", extra_instructions=extra_instructions)
    instructions = instructions_template().format(
        library=library.title,
        syntax=library.syntax,
        api=dataset.display_names.get(sample.api, sample.api),
        extra_instructions=extra_instructions,
    )
    starter = starter_code(library, sample, setup)
    return Prompt(text=instructions + starter, starter=starter, instructions=instructions,
                  call_start=f"{library.call_name}.")
