"""Writing grammars in llguidance's Lark dialect: rule naming, literals, regexes, key sets.

Two properties of llguidance's lexer shape every grammar written here (both tested):

- lexemes are *greedy*: where one allowed lexeme is a proper prefix of another and the input goes
  on to match the longer one, the shorter one is dropped. So anything whose end is decided by what
  follows (a URL with a path parameter followed by a literal suffix, a key followed by ``:``) is
  written as *one* regular expression that includes its delimiter.
- two lexemes matching exactly the same text are both kept, so overlapping alternatives (two path
  templates that match the same URL) leave both parses open.

:meth:`LarkWriter.members` writes "keys in any order, each at most once, required ones present"
with llguidance's parametric rules: one bit per key, the required keys first, so that
``is_ones([0:R])`` says they are all there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable, Hashable

WS = "WS"
"""The name of the whitespace terminal every grammar here defines."""
FREE_WHITESPACE = r"[ \t\r\n]+"
"""Any whitespace between lexemes (the default: no layout is rejected)."""
COMPACT_WHITESPACE = r" {1,4}|\r?\n[ \t]{0,12}"
"""A few spaces, or one line break and an indentation: a grammar option for models that would
otherwise fill their token budget with whitespace (a random one does)."""
MAX_BITS = 64


def literal(text: str) -> str:
    """A Lark string literal matching ``text`` exactly."""
    return json.dumps(text, ensure_ascii=False)


def regex(pattern: str) -> str:
    """A Lark ``/…/`` regex for a Rust-``regex`` ``pattern``."""
    return "/" + pattern.replace("/", "\\/") + "/"


_ESCAPES = {ord(c): "\\" + c for c in r".^$*+?()[]{}|\-&~#"}
_ESCAPES.update({i: f"\\x{i:02x}" for i in [*range(0x20), 0x7F]})


def escape(text: str) -> str:
    """``text`` as a regex matching itself (valid for both Python's ``re`` and Rust's ``regex``)."""
    return text.translate(_ESCAPES)


def alternatives(parts: list[str]) -> str:
    """``a | b | c`` (a single part as it is)."""
    return " | ".join(parts)


@dataclass(frozen=True)
class Entry:
    """One key of an object: the lexeme matching the key *and its separator*, and the value rule."""

    key: str  # a terminal name or inline regex
    value: str  # a rule name
    required: bool = False


class LarkWriter:
    """Collects named rules and terminals; equal definitions share one name."""

    def __init__(self, whitespace: str = FREE_WHITESPACE, forbidden: str | None = None) -> None:
        self._rules: dict[str, str] = {}
        self._by_key: dict[Hashable, str] = {}
        self._counts: dict[str, int] = {}
        self.whitespace = whitespace
        self.forbidden = forbidden
        """A regex for text no lexeme may contain (what would end the call early for an extractor
        that cuts at the first marker, such as the axios adapter's)."""
        self.terminal(WS, regex(whitespace))

    def lexeme(self, pattern: str) -> str:
        """The terminal body for ``pattern``, less the texts that contain :attr:`forbidden`."""
        if self.forbidden is None:
            return regex(pattern)
        return f"{regex(pattern)} & ~{regex(f'(?s:.*(?:{self.forbidden}).*)')}"

    def separated(self, pattern: str, separator: str) -> str:
        """A regex for ``pattern``, optional whitespace (of this grammar's kind) and ``separator``."""
        return f"(?:{pattern})(?:{self.whitespace})?{escape(separator)}"

    def name(self, prefix: str) -> str:
        """A fresh rule name starting with ``prefix`` (lower case: a rule; upper case: a terminal)."""
        n = self._counts.get(prefix, 0)
        self._counts[prefix] = n + 1
        return f"{prefix}{n}"

    def define(self, name: str, body: str) -> str:
        """Define ``name: body`` (a parametric rule is named ``name::_``) and return ``name``."""
        self._rules[name] = body
        return name

    def terminal(self, name: str, body: str) -> str:
        return self.define(name, body)

    def shared(self, key: Hashable, prefix: str, build: Callable[[str], str]) -> str:
        """The rule for ``key``, defined once as ``build(name)``; a recursive ``build`` may refer to
        ``name`` (it is registered before ``build`` runs)."""
        found = self._by_key.get(key)
        if found is not None:
            return found
        name = self.name(prefix)
        self._by_key[key] = name
        self._rules[name] = ""  # reserve the slot: definitions keep the order of first use
        self._rules[name] = build(name)
        return name

    def shared_terminal(self, pattern: str, prefix: str = "T") -> str:
        """A terminal for the regex ``pattern`` (one name per distinct pattern)."""
        return self.shared(("terminal", pattern), prefix.upper(), lambda _: self.lexeme(pattern))

    def members(self, entries: list[Entry], extra: tuple[str, str] | None = None, nonempty: bool = False) -> str:
        """A rule for the inside of an object (between its braces, without surrounding whitespace):
        ``entries`` in any order, each at most once, the required ones present, separated by
        commas, an optional trailing comma; ``extra`` = (key lexeme, value rule) allows any number
        of further keys; ``nonempty``: at least one of ``entries``. More than 64 entries: any order,
        repeats allowed, nothing enforced."""
        entries = sorted(entries, key=lambda e: not e.required)  # required ones take the low bits
        key = ("members", tuple(entries), extra, nonempty)
        found = self._by_key.get(key)
        if found is not None:
            return found
        if not entries and not extra:
            ref = '""'
        elif len(entries) > MAX_BITS:
            ref = self.define(self.name("loose"), self._loose_members(entries, extra))
        else:
            name = self.name("m")
            ref = f"{name}::0x0"
            self._members(name, entries, extra, nonempty)
        self._by_key[key] = ref
        return ref

    def _members(self, name: str, entries: list[Entry], extra: tuple[str, str] | None, nonempty: bool) -> None:
        rest = self.name("r")
        required = sum(e.required for e in entries)
        if required:
            done = f"is_ones([0:{required}])"
        elif nonempty:
            done = f"not(is_zeros([0:{len(entries)}]))"
        else:
            done = "true"
        parts = [f'"" %if {done}']
        for bit, entry in enumerate(entries):
            parts.append(f"{entry.key} {WS}? {entry.value} {WS}? {rest}::set_bit({bit}) %if bit_clear({bit})")
        if extra:
            parts.append(f"{extra[0]} {WS}? {extra[1]} {WS}? {rest}::_")
        self._rules[f"{name}::_"] = "\n    | ".join(parts)
        self._rules[f"{rest}::_"] = f'"," {WS}? {name}::_ | "" %if {done}'

    def _loose_members(self, entries: list[Entry], extra: tuple[str, str] | None) -> str:
        pairs = [f"{e.key} {WS}? {e.value}" for e in entries]
        if extra:
            pairs.append(f"{extra[0]} {WS}? {extra[1]}")
        pair = self.define(self.name("pair"), alternatives(pairs))
        return f'({pair} ({WS}? "," {WS}? {pair})* ({WS}? ",")?)?'

    def text(self, start: str, free_until: str | None = None) -> str:
        """The whole grammar with ``start: <start>`` first; with ``free_until``, ``start`` follows any
        text that ends in that anchor (the ``imports`` setup: the model writes up to the call)."""
        if free_until is not None:
            self.define("free[lazy]", regex(r"(?s:.*)" + escape(free_until)))
            start = f"free {start}"
        lines = ["%llguidance {}", f"start: {start}"]
        lines += [f"{name}: {body}" for name, body in self._rules.items()]
        return "\n".join(lines) + "\n"


def sequence(item: str, open_: str, close: str) -> str:
    """``open item, item, … close`` with optional whitespace and trailing comma (may be empty)."""
    return (f'{literal(open_)} {WS}? ({item} ({WS}? "," {WS}? {item})* ({WS}? ",")? {WS}?)? {literal(close)}')
