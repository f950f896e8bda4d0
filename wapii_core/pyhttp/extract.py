"""Cutting the part of a generated Python program that issues the first request (Python's tokenizer and ast).

The rules, in the spirit of the reference's axios extraction (metrics.md §2) but read with Python's
own grammar instead of text markers:

1. The program ends at the first line that opens with three back-ticks (the model closing its code
   block).
2. The longest prefix of the program that ends at a logical line and compiles (top-level ``await``
   allowed) is the program that can run; the rest was cut off or is not Python.
3. The call starts at the first top-level statement that uses the library (the module name, an
   ``import … as`` alias, or a name imported from it) other than an import. Everything before it
   is dropped, except import statements, which are kept in front: like the reference dropping what
   precedes ``axios.``, a value defined before the call is gone (a ``NameError`` at run time).
4. It ends with the runnable prefix. Execution stops at the first request the program issues, so
   what follows that request never runs.
5. For a library whose requests are made in an ``async with`` header (aiohttp), a program that
   does not compile but holds a complete first request call ends at that call's closing
   parenthesis, its header closed (:func:`close_request_header`), before rules 2–4.

Errors: no use of the library anywhere → ``no_request``; the program ends inside the statement that
uses it (an open bracket or string, a dangling operator, a block header without body), or it was cut
before any statement that calls a request method → ``incomplete_request``. A statement that uses the
library but does not compile for another reason is kept as the call: running it raises the
``SyntaxError`` (``runtime_error``), as a syntax error did in the reference.
"""

from __future__ import annotations

import ast
import io
import tokenize
from dataclasses import dataclass

from wapii_core.base.model import Extraction

from wapii_core.pyhttp.library import PYTHON_REQUEST_METHODS, PythonLibrary

FENCE = "```"
COMPILE_FLAGS = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
REQUEST_CALLS = frozenset(PYTHON_REQUEST_METHODS) | {"request", "stream", "send"}
"""Attribute names whose call issues a request (module functions and client / session methods)."""

PREFIX_TRIES = 16
"""Prefixes tried one after the other, backwards from the error's line, before bisection takes over."""
MAX_PROGRAM_CHARS = 256 << 10
"""Characters of a program extracted (a longer one is a model looping to its token limit): the rest
is cut off before extraction, so work in wapii's own process stays bounded."""

_SKIPPED_TOKENS = {tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT,
                   tokenize.ENDMARKER}


@dataclass
class _Scan:
    """What Python's tokenizer says about a program."""

    tokens: list[tokenize.TokenInfo]
    ended_inside: bool  # the tokenizer hit the end inside a bracket, a string or a line continuation

    @property
    def line_ends(self) -> list[tuple[int, int]]:
        """(row, col) just after each logical line, in order."""
        return [tok.end for tok in self.tokens if tok.type == tokenize.NEWLINE]

    @property
    def last_significant(self) -> tokenize.TokenInfo | None:
        for tok in reversed(self.tokens):
            if tok.type not in _SKIPPED_TOKENS:
                return tok
        return None


def _split_lines(text: str) -> list[str]:
    """``text``'s lines with their ends, split where Python's tokenizer splits them: at ``\\n`` only
    (``str.splitlines`` also splits at U+2028, form feeds and other characters a string may hold)."""
    parts = text.split("\n")
    lines = [part + "\n" for part in parts[:-1]]
    return lines + [parts[-1]] if parts[-1] else lines


def cut_at_fence(code: str) -> str:
    """The program up to the first line that starts with three back-ticks."""
    lines = _split_lines(code)
    for number, line in enumerate(lines):
        if line.lstrip().startswith(FENCE):
            return "".join(lines[:number])
    return code


def _scan(program: str) -> _Scan:
    tokens: list[tokenize.TokenInfo] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(program).readline):
            tokens.append(tok)
    except tokenize.TokenError:
        return _Scan(tokens, ended_inside=True)
    except (IndentationError, SyntaxError):
        pass  # an inconsistent dedent: a syntax error, not an end inside a construct
    return _Scan(tokens, ended_inside=False)


def _compile(source: str) -> ast.Module | SyntaxError:
    try:
        return compile(source, "<program>", "exec", flags=COMPILE_FLAGS, dont_inherit=True)
    except SyntaxError as exc:
        return exc
    except ValueError as exc:  # e.g. a NUL character
        return SyntaxError(str(exc))


class _Lines:
    """Offsets of (row, col) positions in a text; ``col`` in characters or, for ast nodes, UTF-8 bytes."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = _split_lines(text)
        self.starts = [0]
        for line in self.lines:
            self.starts.append(self.starts[-1] + len(line))

    def offset(self, row: int, col: int) -> int:
        if row - 1 >= len(self.lines):
            return len(self.text)
        return self.starts[row - 1] + col

    def byte_offset(self, row: int, col_bytes: int) -> int:
        if row - 1 >= len(self.lines):
            return len(self.text)
        line = self.lines[row - 1]
        return self.starts[row - 1] + len(line.encode("utf-8")[:col_bytes].decode("utf-8", errors="ignore"))

    def segment(self, node: ast.stmt) -> str:
        start = self.byte_offset(node.lineno, node.col_offset)
        end = self.byte_offset(node.end_lineno or node.lineno, node.end_col_offset or 0)
        return self.text[start:end]


def _runnable_prefix(program: str, scan: _Scan) -> tuple[str, ast.Module, SyntaxError | None]:
    """The longest prefix ending at a logical line that compiles, its tree, and the whole program's error.

    Linear in the program's size: a prefix that holds the tokens the parser stopped at fails the
    same way, so only prefixes ending before the error's line are candidates; the last of them is
    tried first (almost always the answer), a few more after it, then the rest by bisection."""
    whole = _compile(program)
    if isinstance(whole, ast.Module):
        return program, whole, None
    lines = _Lines(program)
    ends = scan.line_ends
    if whole.lineno is not None:
        ends = [end for end in ends if end[0] < whole.lineno]

    def attempt(index: int) -> tuple[str, ast.Module] | None:
        prefix = program[:lines.offset(*ends[index])]
        tree = _compile(prefix)
        return (prefix, tree) if isinstance(tree, ast.Module) else None

    low, high = 0, len(ends) - 1
    for _ in range(PREFIX_TRIES):
        if high < low:
            break
        found = attempt(high)
        if found is not None:
            return (*found, whole)
        high -= 1
    best: tuple[str, ast.Module] | None = None
    while low <= high:  # the rest: the longest prefix that compiles, by bisection
        middle = (low + high) // 2
        found = attempt(middle)
        if found is not None:
            best, low = found, middle + 1
        else:
            high = middle - 1
    if best is not None:
        return (*best, whole)
    return "", ast.Module(body=[], type_ignores=[]), whole


def _is_truncated(program: str, scan: _Scan, error: SyntaxError | None) -> bool:
    """Whether the program ends in the middle of a statement (Python's own tokenizer and parser say so)."""
    if scan.ended_inside:
        return True
    if error is None or error.lineno is None:
        return False
    last = scan.last_significant
    if last is None:
        return False
    position = (error.lineno, (error.offset or 1) - 1)
    return position >= last.end


def library_names(tree: ast.Module, library: PythonLibrary) -> set[str]:
    """Names that refer to the library or to something imported from it."""
    names = {library.module}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == library.module or alias.name.startswith(library.module + "."):
                    names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == library.module:
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def _uses(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _calls_request(node: ast.AST, names: set[str]) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            func = n.func
            if isinstance(func, ast.Attribute) and func.attr in REQUEST_CALLS:
                return True
            if isinstance(func, ast.Name) and func.id in names:
                return True
    return False


def _first_use_row(text: str, names: set[str]) -> int | None:
    """The row of the first NAME token of ``text`` that names the library (tolerates broken code)."""
    for tok in _scan(text).tokens:
        if tok.type == tokenize.NAME and tok.string in names:
            return tok.start[0]
    return None


_OPENING, _CLOSING = "([{", ")]}"


def _receivers(tokens: list[tokenize.TokenInfo], names: set[str]) -> set[str]:
    """The library's names and the names bound to something made from it: ``as NAME`` of a ``with``
    item whose header uses the library (``async with aiohttp.ClientSession() as session``) and
    ``NAME = <library name>…`` (``session = aiohttp.ClientSession()``)."""
    found = set(names)
    in_with = uses = False
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.NAME and tok.string == "with":
            in_with, uses = True, False
        elif in_with and tok.type == tokenize.OP and tok.string == ":":
            in_with = False
        elif in_with and tok.type == tokenize.NAME:
            uses = uses or tok.string in found
            if tok.string == "as" and uses and i + 1 < len(tokens) and tokens[i + 1].type == tokenize.NAME:
                found.add(tokens[i + 1].string)
        elif (tok.type == tokenize.NAME and i + 2 < len(tokens) and tokens[i + 1].string == "="
              and tokens[i + 2].type == tokenize.NAME and tokens[i + 2].string in found):
            found.add(tok.string)
    return found


def _first_request_end(tokens: list[tokenize.TokenInfo], receivers: set[str]) -> tokenize.TokenInfo | None:
    """The closing parenthesis of the first ``<receiver>.<request method>(…)`` call, None when the
    program has none or ends inside it."""
    for i in range(2, len(tokens) - 1):
        tok = tokens[i]
        if not (tok.type == tokenize.NAME and tok.string in REQUEST_CALLS and tokens[i - 1].string == "."
                and tokens[i - 2].type == tokenize.NAME and tokens[i - 2].string in receivers
                and tokens[i + 1].string == "("):
            continue
        depth = 0
        for later in tokens[i + 1:]:
            if later.type == tokenize.OP and later.string in _OPENING:
                depth += 1
            elif later.type == tokenize.OP and later.string in _CLOSING:
                depth -= 1
                if depth == 0:
                    return later
        return None
    return None


def close_request_header(program: str, library: PythonLibrary, scan: _Scan | None = None,
                         tree: ast.Module | None = None) -> str:
    """For a library whose requests are made in a ``with`` header (:attr:`PythonLibrary.request_in_header`):
    a program that does not compile but holds a complete first request call is cut right after that
    call's closing parenthesis and the statement closed (a header gets ``:`` and a ``pass`` body).

    Execution stops at the first request, so what the program does after the call never runs: like
    the reference's extraction, which ends the call at its closing parenthesis, a completion cut off
    in the response's block (or ended there by a grammar) still issues its request. The program is
    returned unchanged when it compiles, has no complete request call, or the cut does not compile.
    ``scan`` and ``tree`` (the program's tokens and its runnable prefix's tree) save reading it again.
    """
    if scan is None or tree is None:
        if isinstance(_compile(program), ast.Module):
            return program
        scan = _scan(program)
        _, tree, _ = _runnable_prefix(program, scan)
    end = _first_request_end(scan.tokens, _receivers(scan.tokens, library_names(tree, library)))
    if end is None:
        return program
    lines = _Lines(program)
    cut = program[:lines.offset(*end.end)]
    line = lines.lines[end.start[0] - 1] if end.start[0] - 1 < len(lines.lines) else ""
    header_row = next((tok.start[0] for tok in reversed(scan.tokens)
                       if tok.type == tokenize.NAME and tok.string == "with" and tok.start <= end.start), None)
    if header_row is not None:
        line = lines.lines[header_row - 1]
    indent = line[:len(line) - len(line.lstrip())]
    for closing in (f":\n{indent}    pass\n", "\n"):
        if isinstance(_compile(cut + closing), ast.Module):
            return cut + closing
    return program


def extract_python_call(code: str, library: PythonLibrary) -> Extraction:
    """The statements of ``code`` (starter code + completion) that issue its first request, or why none."""
    program = cut_at_fence(code[:MAX_PROGRAM_CHARS])
    scan = _scan(program)
    prefix, tree, error = _runnable_prefix(program, scan)
    if library.request_in_header and prefix != program:
        closed = close_request_header(program, library, scan, tree)
        if closed != program:
            program, scan = closed, _scan(closed)
            prefix, tree, error = _runnable_prefix(program, scan)
    names = library_names(tree, library)
    lines = _Lines(prefix)
    imports = [stmt for stmt in tree.body if isinstance(stmt, (ast.Import, ast.ImportFrom))]
    first = next((i for i, stmt in enumerate(tree.body)
                  if not isinstance(stmt, (ast.Import, ast.ImportFrom)) and _uses(stmt, names)), None)
    truncated = prefix != program and _is_truncated(program, scan, error)

    if first is None:
        rest = program[len(prefix):]
        row = _first_use_row(rest, names)
        if row is None:
            return Extraction(error="no_request")
        if truncated:
            return Extraction(error="incomplete_request")
        rest_lines = _split_lines(rest)
        begin_at = len(prefix) + sum(len(line) for line in rest_lines[:row - 1])
        return Extraction(call=_imports_source(imports, lines) + "".join(rest_lines[row - 1:]),
                          span=(begin_at, min(len(code), len(program))))

    statements = tree.body[first:]
    if truncated and not any(_calls_request(stmt, names) for stmt in statements):
        return Extraction(error="incomplete_request")
    begin = (statements[0].lineno, statements[0].col_offset)
    kept = [stmt for stmt in imports if (stmt.lineno, stmt.col_offset) < begin]
    start = lines.byte_offset(statements[0].lineno, statements[0].col_offset)
    body = prefix[start:]
    return Extraction(call=_imports_source(kept, lines) + body + ("" if body.endswith("\n") else "\n"),
                      span=(start, min(len(code), len(prefix))))


def _imports_source(imports: list[ast.stmt], lines: _Lines) -> str:
    return "".join(lines.segment(stmt) + "\n" for stmt in imports)


def extract_python_program(code: str, library: PythonLibrary) -> Extraction:
    """The whole program of ``code`` (starter code + completion) as it runs in a workflow task, not cut
    at its first request: rules 1 and 2 above (up to a closing code fence; the longest prefix that
    compiles, so prose after the code is not run). Errors as for the first call: no use of the
    library → ``no_request``; the program ends inside the first statement that uses it →
    ``incomplete_request``; a first use that does not compile for another reason is kept, so that
    running the program raises its ``SyntaxError`` (``runtime_error``)."""
    program = cut_at_fence(code[:MAX_PROGRAM_CHARS])
    scan = _scan(program)
    prefix, tree, error = _runnable_prefix(program, scan)
    names = library_names(tree, library)
    if any(not isinstance(stmt, (ast.Import, ast.ImportFrom)) and _uses(stmt, names) for stmt in tree.body):
        return Extraction(call=prefix if prefix.endswith("\n") else prefix + "\n", span=(0, len(prefix)))
    if _first_use_row(program[len(prefix):], names) is None:
        return Extraction(error="no_request")
    if prefix != program and _is_truncated(program, scan, error):
        return Extraction(error="incomplete_request")
    return Extraction(call=program if program.endswith("\n") else program + "\n", span=(0, len(program)))
