"""Turning a model's answer into the full program a :class:`~wapii_core.base.model.Generation` holds.

Shared by every model backend (``openai`` and ``hf``):

- a base model *continues* the prompt: the program is the starter code plus the completion, cut
  after the benchmark's stop string ``"\\n```\\n"`` (its final newline dropped, as the benchmark does);
- an instruction-tuned model *answers* a chat: the answer may open with a role marker, wrap the
  code in Markdown fences, surround it with prose, repeat the starter code or restart the call.
  :func:`chat_program` finds where the answer continues the starter code and splices it on.
"""

from __future__ import annotations

import re

STOP = "\n```\n"
"""The benchmark's stop string: the end of the Markdown code block the prompt opens."""

_ROLE_MARKER = re.compile(
    r"\A\s*(?:<\|assistant\|>|<\|im_start\|>assistant"  # <|assistant|>, <|im_start|>assistant
    r"|(?:#+[ \t]*)?(?:assistant|response|answer)[ \t]*:"  # Assistant:, ### Response:
    r"|#+[ \t]*(?:assistant|response|answer)[ \t]*$)"  # ### Response
    r"[ \t]*\n?", re.IGNORECASE | re.MULTILINE)
_FENCE = re.compile(r"^[ \t]*```[^\n`]*(?:\n(.*?)(?:^[ \t]*```[ \t]*$|\Z)|\Z)", re.DOTALL | re.MULTILINE)
_OPEN_FENCE_LINE = re.compile(r"(?:\A|\n)([ \t]*```[^\n`]*\n)\Z")
_INSTRUCTION_END = re.compile(r":([ \t]*\n\s*)\Z")

INSTRUCT_EXTRA = " without any explanations"
"""What the benchmark's prompt asks of instruction-tuned models at ``{extra_instructions}``
("Complete the following code snippet without any explanations:"); base models get nothing."""
_CHAT_NAME = re.compile(r"instruct|chat|(?:^|/)(?:gpt-|o[1-9]\b|claude|gemini)", re.IGNORECASE)


def is_chat_model(name: str | None) -> bool:
    """Whether a model name looks instruction-tuned (the ``chat=auto`` rule).

    Names with "instruct" or "chat" (``deepseek-coder-33b-instruct``, ``Llama-3-8B-Chat``), and the
    chat-only hosted families (``gpt-4o``, ``o3-mini``, ``claude-*``, ``gemini-*``, also after a
    ``provider/`` prefix) are; everything else is taken to be a base model that continues the prompt.
    """
    return bool(name) and bool(_CHAT_NAME.search(name or ""))


def chat_messages(text: str, system: str = "none") -> list[dict[str, str]]:
    """The chat messages for a prompt: one user message (``system="none"``), or with ``"split"`` the
    prompt's first sentence as the system message and the rest as the user message (as the paper
    prompted its hosted chat models)."""
    if system == "split":
        first, sep, rest = text.partition(". ")
        if sep and rest:
            return [{"role": "system", "content": first + "."}, {"role": "user", "content": rest}]
    return [{"role": "user", "content": text}]


def with_extra_instructions(instructions: str, extra: str = INSTRUCT_EXTRA) -> str:
    """``instructions`` (the prompt before the starter code) with ``extra`` where the template's
    ``{extra_instructions}`` stands: before the colon that ends the sentence introducing the code
    block (``Complete the following code snippet:``), found as the last colon before the opening
    fence. Unchanged when there is no such colon."""
    fence = _OPEN_FENCE_LINE.search(instructions)
    head, tail = (instructions[:fence.start(1)], instructions[fence.start(1):]) if fence else (instructions, "")
    colon = _INSTRUCTION_END.search(head)
    if not colon:
        return instructions
    return head[:colon.start()] + extra + head[colon.start():] + tail


def prefill_messages(text: str, starter: str, system: str = "none", extra: str = INSTRUCT_EXTRA) -> list[dict[str, str]]:
    """Chat messages whose last one is the *assistant's* turn already begun with the starter code.

    The prompt's instructions (``text`` without the trailing ``starter``; ``extra`` added as in
    :func:`with_extra_instructions`) are the user's message, without the code fence that opens the
    starter's block; the assistant's message is that fence line followed by the starter code. A chat
    template asked to continue the final message (``continue_final_message``) then ends exactly
    there, and the model continues the program as a base model would, closing the block with the
    benchmark's stop string.
    """
    instructions = text[:len(text) - len(starter)] if starter and text.endswith(starter) else text
    fence = _OPEN_FENCE_LINE.search(instructions)
    opening = fence.group(1) if fence else ""
    user = with_extra_instructions(instructions, extra)
    if opening:
        user = user[:len(user) - len(opening)].rstrip()
    return [*chat_messages(user, system), {"role": "assistant", "content": opening.lstrip() + starter}]


def model_input(text: str, starter: str, *, chat: bool, system: str = "none",
                prefill: bool = False) -> str | list[dict[str, str]]:
    """What a model is sent for a prompt, whichever backend sends it (the one place it is built):

    - a base model (``chat`` false): ``text`` itself, to continue;
    - an instruction model with ``prefill`` and starter code: :func:`prefill_messages`, the
      assistant's turn begun with the starter (a server or template that continues it);
    - otherwise the chat messages asking for an answer, the instructions with
      :data:`INSTRUCT_EXTRA` where the benchmark's template puts it (:func:`with_extra_instructions`)
      and ``system`` as :func:`chat_messages` says.

    The ``hf`` backend renders these messages through the model's chat template; the ``openai``
    backend sends them as the request's ``messages``: the same model in the same setup gets the same
    prompt through either backend.
    """
    if not chat:
        return text
    if prefill and starter:
        return prefill_messages(text, starter, system)
    if starter and text.endswith(starter):
        text = with_extra_instructions(text[:len(text) - len(starter)]) + starter
    return chat_messages(text, system)


def cut_at_stop(text: str, stop: str | None = STOP) -> tuple[str, bool]:
    """``text`` up to and including the first ``stop``, and whether ``stop`` occurred."""
    if not stop:
        return text, False
    at = text.find(stop)
    if at < 0:
        return text, False
    return text[:at + len(stop)], True


def continuation_program(starter: str, completion: str, stop: str | None = STOP) -> str:
    """A base model's program: ``starter + completion``, cut after ``stop``.

    A program that ends in the closed code block (``"```\\n"``) loses that final newline, as in the
    benchmark's own generations.
    """
    program = starter + cut_at_stop(completion, stop)[0]
    if program.endswith("```\n"):
        program = program[:-1]
    return program


def strip_role_marker(answer: str) -> str:
    """``answer`` without a leading speaker marker (``Assistant:``, ``### Response:``, ``<|assistant|>``)."""
    return _ROLE_MARKER.sub("", answer, count=1)


def code_of(answer: str, call_start: str = "") -> str:
    """The code in a chat answer: its first fenced block that makes a call (contains ``call_start``,
    when given), else its first fenced block, else the whole answer. An unclosed fence runs to the
    end; a fence line with nothing after it (a bare "```" or "```\\n") is an empty block."""
    blocks = [m.group(1) or "" for m in _FENCE.finditer(answer)]
    for block in blocks:
        if call_start and call_start in block:
            return block
    return blocks[0] if blocks else answer


def _find_at_line_start(code: str, needle: str) -> int:
    """The first index of ``needle`` at the start of a line (after indentation), else anywhere, else -1."""
    match = re.search(r"(?m)^[ \t]*(" + re.escape(needle) + ")", code)
    if match:
        return match.start(1)
    return code.find(needle)


def chat_program(starter: str, answer: str, call_start: str = "") -> str:
    """An instruction model's program: the starter code continued by what ``answer`` adds to it.

    ``call_start`` is what the target library's calls start with (``Prompt.call_start``: ``axios.``,
    ``fetch(``, ``requests.``...). In order:
    1. the code repeats the whole starter: what follows it continues the program;
    2. the code repeats the starter's last line (``axios.``, ``axios.get('<url>',`` or the import
       when the starter ends with a newline): what follows that line continues it;
    3. the code makes its own call (``call_start`` at a line's start, else anywhere): it replaces
       the starter's unfinished last line;
    4. otherwise the code itself is taken as the continuation (e.g. ``get('<url>')`` after ``axios.``).
    Role markers, prose and Markdown fences around the code are dropped.
    """
    code = code_of(strip_role_marker(answer), call_start)
    at = code.find(starter)
    if starter and at >= 0:
        return starter + code[at + len(starter):]
    head, newline, last = starter.rpartition("\n")
    anchor = last.strip() or head.rpartition("\n")[2].strip()
    if anchor:
        at = _find_at_line_start(code, anchor)
        if at >= 0:
            rest = code[at + len(anchor):]
            if not last.strip() and rest.startswith("\n"):
                rest = rest[1:]  # the starter already ends the anchor's line
            return starter + rest
    at = _find_at_line_start(code, call_start) if call_start else -1
    if at >= 0:
        # the model's own call replaces the starter's unfinished last line, at that line's indentation
        if last.strip():
            return head + newline + last[: len(last) - len(last.lstrip())] + code[at:]
        return starter + code[at:]
    return starter + code
