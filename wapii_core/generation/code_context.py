"""Tasks inside real code (the journal edition's real-world dataset, docs/datasets.md): the prompt
text around a sample's :class:`~wapii_core.base.model.CodeContext`, shared by the JavaScript adapters.

The dataset's starter code is the real file up to the call, ending with the call's start (``axios.``,
``await axios.``); the task text goes where ``// {task}`` stands. The ``full`` setup (the published
``invocation``) gives the code up to the call's start; ``argument`` (the published ``endpoint``) adds
the method and the URL, a template literal in backticks where the code interpolates a variable
(``template_url``). The published prompt is the dataset's ``prompts/code_generation_with_context_prompt.md``
(placeholders ``{spec}``, ``{api}``, ``{extra_instructions}``, ``{starter_code}``, the last at its end).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wapii_core.base.errors import InputError, WapiiError
from wapii_core.base.model import TASK_SLOT, Prompt, Sample, Setup

CONTEXT_TEMPLATE = "code_generation_with_context_prompt.md"
"""The dataset's prompt for tasks with code context, a file of its ``prompts_dir``."""
DATASET_CALL_START = "axios."
"""What every starter code of the published dataset ends with (it was mined from axios code)."""
STARTER_SLOT = "{starter_code}"


def context_template(prompts_dir: Path | None, fallback: Path | None = None) -> str:
    """The context prompt template: ``fallback`` (an adapter's own wording) when given, else the
    dataset's; a one-line error when neither exists or it does not end with ``{starter_code}``."""
    path = fallback if fallback is not None else (prompts_dir / CONTEXT_TEMPLATE if prompts_dir else None)
    if path is None or not path.is_file():
        raise WapiiError(f"the dataset has tasks with code context but no prompts/{CONTEXT_TEMPLATE}")
    text = path.read_text(encoding="utf-8")
    if not text.rstrip().endswith(STARTER_SLOT):
        raise InputError(path, f"the context prompt must end with {STARTER_SLOT}")
    return text.rstrip()[: -len(STARTER_SLOT)]


def context_code(sample: Sample) -> str:
    """The sample's starter code with the task text in its slot and without the dataset's call start
    (each adapter appends its own: ``axios.``, ``fetch(``)."""
    context = _context(sample)
    code = context.starter_code.replace(TASK_SLOT, sample.task, 1)
    if not code.endswith(DATASET_CALL_START):
        raise WapiiError(f"sample {sample.id}: its starter_code does not end with {DATASET_CALL_START!r}")
    return code[: -len(DATASET_CALL_START)]


def url_literal(sample: Sample, js_string: Callable[[str], str]) -> str:
    """The URL the ``argument`` setup gives: ``template_url`` in backticks, else the URL as a string."""
    template = _context(sample).template_url
    if template is None:
        return js_string(sample.config["url"])
    if "`" in template or "\\" in template:
        raise WapiiError(f"sample {sample.id}: template_url holds a backtick or backslash")
    return f"`{template}`"


def context_starter(sample: Sample, setup: Setup, call_start: str, argument: Callable[[str], str]) -> str:
    """The code the model continues: ``full``: up to ``call_start``; ``argument``: ``call_start`` and
    ``argument(url_literal)`` (the adapter's opening of the call up to the URL)."""
    if setup is Setup.full:
        return context_code(sample) + call_start
    if setup is Setup.argument:
        from wapii_core.generation.js_literal import js_string

        return context_code(sample) + call_start + argument(url_literal(sample, js_string))
    raise WapiiError(f"sample {sample.id} has code context: only the setups full and argument apply "
                     f"(the published invocation and endpoint), not {setup.value!r}")


def context_prompt(sample: Sample, setup: Setup, template: str, api: str, starter: str, call_start: str,
                   extra_instructions: str = "") -> Prompt:
    """The prompt of a context task: ``template`` (as :func:`context_template` gives it) filled, then ``starter``."""
    del setup
    instructions = template.replace("{spec}", "").replace("{api}", api).replace("{extra_instructions}",
                                                                                extra_instructions)
    return Prompt(text=instructions + starter, starter=starter, instructions=instructions, call_start=call_start)


def definitions_source(definitions: dict[str, Any]) -> str:
    """``const <name> = <json>;`` per definition, one a line: what the published pipeline runs before the
    extracted call."""
    out = []
    for name, value in definitions.items():
        if not name.replace("$", "_").isidentifier():
            raise WapiiError(f"definition {name!r} is not a JavaScript identifier")
        out.append(f"const {name} = {json.dumps(value, ensure_ascii=False)};\n")
    return "".join(out)


def _context(sample: Sample) -> Any:
    if sample.context is None:
        raise ValueError(f"sample {sample.id} has no code context")
    return sample.context
