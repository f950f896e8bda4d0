"""The prompt of a workflow task (``--setup workflow``, docs/workflows.md): the model writes a whole
program of several requests. Every adapter words it alike; each adds what is particular to its
library (how it sends a body, how the program runs) as ``notes``.
"""

from __future__ import annotations

from wapii_core.base.model import Prompt, Sample

WORKFLOW_TEMPLATE = """\
Below is the start of a {language} program that uses {library} to talk to the {api} API. The comment at its top says what the program must do. Write the whole program: it sends every request the task needs, in order, and nothing else.

Guidelines:
- Every answer of the API is JSON. Where a request needs a value that an earlier answer gave (an identifier the API made), read it from that answer instead of making one up.
- An answer with status `429` carries a `Retry-After` header (seconds): wait that long and send the same request again. Any other status of 400 or above is a failure: end the program with an error.
- For credentials, write `<token>` where a bearer or OAuth token goes and `<key>` where an API key goes.
{notes}
Complete the program{extra_instructions}:

```{fence}
"""


def workflow_starter(sample: Sample, comment: str, imports: str) -> str:
    """The code the model continues: the task as a comment (``comment`` starts each line: ``//``,
    ``#``), then the imports (``""`` where the library needs none)."""
    lines = sample.task.splitlines() or [""]
    return "".join(f"{comment} {line}\n" for line in lines) + imports


def workflow_prompt(starter: str, *, language: str, library: str, api: str, notes: list[str], fence: str,
                    call_start: str, extra_instructions: str = "") -> Prompt:
    """The prompt for a workflow task: :data:`WORKFLOW_TEMPLATE` (``notes``: the library's own
    guidelines, one per item) followed by ``starter``. It names no request of the task."""
    instructions = WORKFLOW_TEMPLATE.format(language=language, library=library, api=api, fence=fence,
                                            notes="".join(f"- {note}\n" for note in notes),
                                            extra_instructions=extra_instructions)
    return Prompt(text=instructions + starter, starter=starter, instructions=instructions, call_start=call_start)
