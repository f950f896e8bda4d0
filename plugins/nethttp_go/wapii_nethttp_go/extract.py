"""The first request of a Go program (metrics.md §2, for Go).

A Go program is compiled and run as a whole, and net/http ends it when it sends its first request
(the capture), so the extracted call is the program itself, cut at the closing code fence; its
``span`` marks the first sending call. What is found by scanning Go's tokens (comments, strings, raw
strings and runes skipped): a sending call is ``<anything>.Do(``, ``http.Get|Head|Post|PostForm(`` or
the same methods on ``http.DefaultClient`` or on a variable made from ``http.Client``. A program
without one is ``no_request`` (``incomplete_request`` when it is cut off: an unterminated literal or
unclosed brackets); one whose sending call does not close is ``incomplete_request``. A program cut
off after its sending call (a completion that ran out of tokens) ends after the line that holds the
call: the variables that line declares are marked used (``_ = resp``) and the open blocks closed,
so it compiles as Go requires.

A workflow's program (:func:`extract_go_workflow`) is kept whole: it runs to its end, every request answered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wapii_core.api import Extraction

SENDERS = ("Get", "Head", "Post", "PostForm")
_TOKEN = re.compile(r"""
    (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|`[^`]*`|'(?:[^'\\\n]|\\.)*')
  | (?P<bad>/\*|"|`|')
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<newline>\n)
  | (?P<space>[ \t\r]+)
  | (?P<punct>:=|\.\.\.|[^\sA-Za-z_0-9])
  | (?P<other>[0-9][0-9A-Za-z_.]*)
""", re.VERBOSE | re.DOTALL)
_FENCE = re.compile(r"^```", re.MULTILINE)
_DECLARED = re.compile(r"^\s*(?:if\s+)?([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*:=")
_CLIENT = re.compile(r"\b([A-Za-z_]\w*)\s*:?=\s*&?\s*http\.Client\s*\{")


@dataclass(frozen=True)
class Tok:
    kind: str
    text: str
    start: int
    end: int


def tokens(code: str) -> list[Tok]:
    """Go's tokens of ``code`` without spaces and comments (``bad``: an unterminated literal or comment)."""
    out = []
    for match in _TOKEN.finditer(code):
        kind = match.lastgroup or "other"
        if kind in ("space", "comment"):
            continue
        out.append(Tok(kind, match.group(), match.start(), match.end()))
        if kind == "bad":
            break
    return out


def _program(code: str) -> str:
    fences = list(_FENCE.finditer(code))
    return code[: fences[0].start()] if fences else code


def _balanced(toks: list[Tok]) -> bool:
    depth = 0
    for tok in toks:
        if tok.kind == "bad":
            return False
        if tok.kind == "punct" and tok.text in "([{":
            depth += 1
        elif tok.kind == "punct" and tok.text in ")]}":
            depth -= 1
    return depth == 0


def _sender(toks: list[Tok], clients: set[str]) -> int | None:
    """The index of the ``(`` of the first sending call."""
    for i in range(2, len(toks) - 1):
        name, dot, paren = toks[i], toks[i - 1], toks[i + 1]
        if name.kind != "ident" or dot.text != "." or paren.text != "(":
            continue
        receiver = toks[i - 2]
        if name.text == "Do" or (name.text in SENDERS and receiver.kind == "ident"
                                 and (receiver.text in ("http", "DefaultClient") or receiver.text in clients)):
            return i + 1
    return None


def _closing(toks: list[Tok], opening: int) -> int | None:
    depth = 0
    for j in range(opening, len(toks)):
        if toks[j].text in ("(", "[", "{") and toks[j].kind == "punct":
            depth += 1
        elif toks[j].text in (")", "]", "}") and toks[j].kind == "punct":
            depth -= 1
            if depth == 0:
                return j
    return None


def extract_go_program(code: str) -> Extraction:
    program = _program(code)
    toks = tokens(program)
    clients = {m.group(1) for m in _CLIENT.finditer(program)}
    opening = _sender(toks, clients)
    if opening is None:
        return Extraction(error="no_request" if _balanced(toks) else "incomplete_request")
    closing = _closing(toks, opening)
    if closing is None:
        return Extraction(error="incomplete_request")
    line_start = program.rfind("\n", 0, toks[opening].start) + 1
    span = (line_start, toks[closing].end)
    if _balanced(toks):
        return Extraction(call=program if program.endswith("\n") else program + "\n", span=span)
    line_end = program.find("\n", toks[closing].end)
    cut = program[: line_end if line_end >= 0 else len(program)]
    declared = _DECLARED.match(program[line_start:toks[closing].end])
    used = [name.strip() for name in declared.group(1).split(",") if name.strip() != "_"] if declared else []
    depth = sum(1 if t.text == "{" else -1 for t in tokens(cut) if t.kind == "punct" and t.text in "{}")
    if depth <= 0:
        return Extraction(error="incomplete_request")
    text = cut + "\n" + "".join(f"\t_ = {name}\n" for name in used) + "}\n" * depth
    return Extraction(call=text, span=span)


def extract_go_workflow(code: str) -> Extraction:
    """The whole program of a workflow (``extract_program``): cut at the closing fence as
    :func:`extract_go_program` cuts it, never at a request, since every request it sends is answered
    and judged. A program cut off (an unterminated literal or comment, unclosed brackets) cannot run:
    ``incomplete_request``; one without a sending call: ``no_request``. ``span`` is the whole program."""
    program = _program(code)
    toks = tokens(program)
    if not _balanced(toks):
        return Extraction(error="incomplete_request")
    if _sender(toks, {m.group(1) for m in _CLIENT.finditer(program)}) is None:
        return Extraction(error="no_request")
    return Extraction(call=program if program.endswith("\n") else program + "\n", span=(0, len(program)))
