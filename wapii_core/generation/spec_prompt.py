"""The ``spec`` setting (the journal edition's): the API's whole OpenAPI document in the prompt.

The block goes before the instructions, in the published wording: ``OpenAPI specification of the
{api} API:`` and the document in a ``yaml`` code block. A YAML spec is shown as its file's text; a JSON
one (or any other) as its parsed document written as YAML. The prompt is never cut: whether it fits
the model's context is the backend's check (the hf backend says, in one line, how many tokens the
longest prompt has and what the model's context holds).
"""

from __future__ import annotations

import functools
from pathlib import Path

from wapii_core.base.model import Prompt

SPEC_SETTINGS = ("spec",)
"""The run settings whose prompts carry the whole spec."""
HEADER = "OpenAPI specification of the {api} API:\n\n```yaml\n{spec}\n```\n\n"


@functools.lru_cache(maxsize=16)
def spec_text(path: str, size: int, mtime_ns: int) -> str:
    """The spec of ``path`` as YAML text (``size`` and ``mtime_ns`` key the cache to the file's content)."""
    del size, mtime_ns
    file = Path(path)
    if file.suffix.lower() in (".yaml", ".yml"):
        return file.read_text(encoding="utf-8").strip("\n")
    import yaml

    from wapii_core.openapi.spec_file import read_spec

    return yaml.safe_dump(read_spec(file), sort_keys=False, allow_unicode=True, width=120).strip("\n")


def spec_block(spec: Path, api: str) -> str:
    """The block put before the instructions: the header and the whole document."""
    stat = Path(spec).stat()
    return HEADER.format(api=api, spec=spec_text(str(spec), stat.st_size, stat.st_mtime_ns))


def with_spec(prompt: Prompt, spec: Path, api: str) -> Prompt:
    """``prompt`` with the whole spec of ``api`` before its instructions."""
    block = spec_block(spec, api)
    return Prompt(text=block + prompt.text, starter=prompt.starter, instructions=block + prompt.instructions,
                  call_start=prompt.call_start)
