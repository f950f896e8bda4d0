"""Java source: a tokenizer, Java string literals, the extraction of a program's first request, and the
program a sandboxed JVM runs.

Extraction (the paper's rule, for Java): the program is cut at a closing code fence; its ``import``
declarations are kept; the call is the body of the method (or initialiser) holding the first call
of the library's request method (``client.send(`` …), from its first statement to the end of the
statement of that body that contains the call (a whole ``try``/``catch``, ``if``/``else``). A program
without such a call is ``no_request``; one that ends inside that statement is ``incomplete_request``.
:func:`program_source` wraps what was extracted into ``package <p>; <imports> public class Main {
public static void main(String[] args) throws Exception { wapii.Launch.install(); <statements> } }``
(the first statement puts wapii's pass-through TLS provider first: :mod:`wapii_core.jvm.support`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wapii_core.base.model import Extraction

_PUNCT = re.compile(r">>>=|<<=|>>=|\.\.\.|->|::|\+\+|--|&&|\|\||[-+*/%&|^!=<>]=|[{}()\[\];,.@=<>!~?:+\-*/&|^%]")
_IDENT = re.compile(r"[A-Za-z_$\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*")
_NUMBER = re.compile(r"(0[xX][0-9a-fA-F_]+|0[bB][01_]+|[0-9][0-9_]*\.?[0-9_]*([eE][+-]?[0-9]+)?|\.[0-9][0-9_]*([eE][+-]?[0-9]+)?)[lLfFdD]?")


@dataclass(frozen=True)
class Token:
    kind: str  # "ident", "punct", "string", "char", "number"
    text: str
    start: int
    end: int


class Truncated(ValueError):
    """The source ends inside a comment, string or character literal."""


def tokens(source: str) -> list[Token]:
    """The tokens of ``source``, comments and white space left out (:class:`Truncated` when the
    source ends inside a comment or literal; ``ValueError`` for a character Java does not have)."""
    out: list[Token] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c.isspace():
            i += 1
        elif source.startswith("//", i):
            j = source.find("\n", i)
            i = n if j < 0 else j + 1
        elif source.startswith("/*", i):
            j = source.find("*/", i + 2)
            if j < 0:
                raise Truncated("the program ends inside a comment")
            i = j + 2
        elif source.startswith('"""', i):
            j = i + 3
            while True:
                k = source.find('"""', j)
                if k < 0:
                    raise Truncated("the program ends inside a text block")
                backslashes = len(source[j:k]) - len(source[j:k].rstrip("\\"))
                if backslashes % 2 == 0:
                    break
                j = k + 1
            out.append(Token("string", source[i:k + 3], i, k + 3))
            i = k + 3
        elif c in "\"'":
            j = i + 1
            while j < n and source[j] != c:
                if source[j] == "\n":
                    raise ValueError("a line ends inside a string literal")
                j += 2 if source[j] == "\\" else 1
            if j >= n:
                raise Truncated("the program ends inside a literal")
            out.append(Token("string" if c == '"' else "char", source[i:j + 1], i, j + 1))
            i = j + 1
        elif (m := _IDENT.match(source, i)) is not None:
            out.append(Token("ident", m.group(), i, m.end()))
            i = m.end()
        elif (m := _NUMBER.match(source, i)) is not None and m.end() > i:
            out.append(Token("number", m.group(), i, m.end()))
            i = m.end()
        elif (m := _PUNCT.match(source, i)) is not None:
            out.append(Token("punct", m.group(), i, m.end()))
            i = m.end()
        else:
            raise ValueError(f"unexpected character {c!r}")
    return out


def java_string(text: str) -> str:
    """``text`` as a Java string literal (non-ASCII as UTF-16 ``\\u`` escapes; never an escape that
    Java's Unicode pre-processing would turn into a quote, a backslash or a line break)."""
    out = ['"']
    simple = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
    for char in text:
        if char in simple:
            out.append(simple[char])
        elif " " <= char <= "~":
            out.append(char)
        else:
            data = char.encode("utf-16-be", errors="surrogatepass")
            out.extend(f"\\u{int.from_bytes(data[k:k + 2], 'big'):04x}" for k in range(0, len(data), 2))
    return "".join(out) + '"'


def _cut_fence(code: str) -> str:
    fence = code.find("```")
    return code if fence < 0 else code[:fence]


_CLASS_WORDS = {"class", "interface", "enum", "record"}
_CONTINUES = {"catch", "finally", "else"}


def _is_type_body(toks: list[Token], brace: int) -> bool:
    """Whether the ``{`` at ``brace`` opens a class, interface, enum or record body."""
    j = brace - 1
    while j >= 0 and toks[j].text not in (";", "{", "}"):
        if toks[j].kind == "ident" and toks[j].text in _CLASS_WORDS and (j == 0 or toks[j - 1].text != "."):
            return True
        j -= 1
    return False


def _call_index(toks: list[Token], methods: tuple[str, ...]) -> int | None:
    for k in range(1, len(toks) - 1):
        if toks[k].kind == "ident" and toks[k].text in methods and toks[k - 1].text == "." and toks[k + 1].text == "(":
            return k
    return None


def extract_java_call(code: str, methods: tuple[str, ...]) -> Extraction:
    """The imports and the statements up to the first call of ``methods`` (e.g. ``("send", "sendAsync")``)."""
    code = _cut_fence(code)
    truncated = False
    try:
        toks = tokens(code)
    except Truncated:
        truncated, toks = True, _tokens_before_truncation(code)
    except ValueError:
        return Extraction(error="no_request")
    call = _call_index(toks, methods)
    if call is None:
        return Extraction(error="incomplete_request" if truncated and _mentions(code, methods) else "no_request")
    opened: list[int] = []
    for k in range(call):
        if toks[k].text == "{":
            opened.append(k)
        elif toks[k].text == "}" and opened:
            opened.pop()
    body = next((b for b in opened if not _is_type_body(toks, b)), None)
    imports = _imports(code, toks)
    begin = toks[body].end if body is not None else _after_imports(toks)
    first = body + 1 if body is not None else next((k for k, t in enumerate(toks) if t.start >= begin), len(toks))
    end = _statement_end(toks, first, call)
    if end is None:
        return Extraction(error="incomplete_request")
    statements = code[begin:toks[end].end]
    return Extraction(call=imports + statements.strip("\n") + "\n")


_EXPRESSION_BLOCK = {"->", "=", ",", "(", "]", "return", "?", ":"}
"""Tokens after which a ``{`` opens a lambda body or an array initialiser (inside a statement), not a
block statement."""


def _statement_end(toks: list[Token], first: int, call: int) -> int | None:
    """The last token of the body-level statement (a body starting at token ``first``) that holds the
    token ``call``: its ``;``, or the ``}`` that closes a block statement (``if``/``else``,
    ``try``/``catch``/``finally``, a loop) not continued; None when the code ends first."""
    stack: list[int] = []
    for k in range(first, len(toks)):
        text = toks[k].text
        if text in ("{", "(", "["):
            stack.append(k)
        elif text in ("}", ")", "]"):
            if not stack:
                return None  # the body closes before the statement ends
            opening = stack.pop()
            if (k > call and not stack and text == "}"
                    and not (opening > 0 and toks[opening - 1].text in _EXPRESSION_BLOCK)
                    and not (k + 1 < len(toks) and toks[k + 1].text in _CONTINUES)):
                return k
        elif text == ";" and not stack and k > call:
            return k
    return None


def _tokens_before_truncation(code: str) -> list[Token]:
    for cut in range(len(code) - 1, -1, -1):
        if code[cut] == "\n":
            try:
                return tokens(code[:cut])
            except ValueError:
                continue
    return []


def _mentions(code: str, methods: tuple[str, ...]) -> bool:
    return any(f".{name}(" in code for name in methods)


def _imports(code: str, toks: list[Token]) -> str:
    lines, depth, k = [], 0, 0
    while k < len(toks):
        text = toks[k].text
        if text == "{":
            depth += 1
        elif text == "}":
            depth -= 1
        elif depth == 0 and text == "import" and toks[k].kind == "ident":
            j = k
            while j < len(toks) and toks[j].text != ";":
                j += 1
            if j < len(toks):
                lines.append(code[toks[k].start:toks[j].end])
            k = j
        k += 1
    return "".join(line + "\n" for line in lines)


def _after_imports(toks: list[Token]) -> int:
    last = 0
    for k, tok in enumerate(toks):
        if tok.text in ("import", "package") and tok.kind == "ident":
            j = k
            while j < len(toks) and toks[j].text != ";":
                j += 1
            if j < len(toks):
                last = toks[j].end
        elif tok.text == "{":
            break
    return last


INSTALL = "wapii.Launch.install();"
"""The statement that opens every program's ``main``, on the line of ``main``'s brace (so the lines
of a compile error's message are the same as without it)."""


def program_source(call: str, package: str) -> str:
    """The compilation unit a JVM runs for an extracted call: ``package``, the call's imports, and its
    statements as the body of ``Main.main`` (which may throw any exception), after :data:`INSTALL`.
    A whole program (a compilation unit opening with a ``package`` declaration: a workflow's,
    :func:`wapii_core.jvm.workflow.extract_program`) gets ``package`` instead of its own, and a static
    initialiser running :data:`INSTALL` first in its class ``Main`` (before the class's own static
    fields, which may build a client), on the line of the class's brace."""
    try:
        toks = tokens(call)
    except ValueError:
        toks = []
    if toks and toks[0].kind == "ident" and toks[0].text == "package":
        return _unit_source(call, toks, package)
    split = _after_imports(toks) if toks else 0
    return (f"package {package};\n{call[:split].strip()}\n\npublic class Main {{\n"
            f"public static void main(String[] args) throws Exception {{ {INSTALL}\n{call[split:].strip()}\n}}\n}}\n")


def top_level_types(toks: list[Token]) -> list[tuple[int, str]]:
    """``(index of its name's token, name)`` of each type a compilation unit declares at its top level."""
    found, depth = [], 0
    for k, tok in enumerate(toks):
        if tok.text in ("{", "(", "["):
            depth += 1
        elif tok.text in ("}", ")", "]"):
            depth -= 1
        elif (depth == 0 and tok.kind == "ident" and tok.text in _CLASS_WORDS and k + 1 < len(toks)
              and toks[k + 1].kind == "ident" and (k == 0 or toks[k - 1].text != ".")):
            found.append((k + 1, toks[k + 1].text))
    return found


def _unit_source(unit: str, toks: list[Token], package: str) -> str:
    end = next((k for k, tok in enumerate(toks) if tok.text == ";"), 0)
    main = next((at for at, name in top_level_types(toks) if name == "Main" and toks[at - 1].text in ("class", "record")), None)
    brace = next((j for j in range(main, len(toks)) if toks[j].text == "{"), None) if main is not None else None
    install = "" if brace is None else f" static {{ {INSTALL} }}"
    at = toks[brace].end if brace is not None else len(unit)
    return f"package {package};" + unit[toks[end].end:at] + install + unit[at:]
