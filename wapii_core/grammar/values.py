"""Grammar rules for typed values, in the literal syntax of one programming language.

A :class:`Dialect` says how a language writes strings, numbers, booleans, null, object keys and
references to variables; :class:`ValueRules` turns value types (:mod:`.types`) into Lark rules in
that dialect, one rule per distinct type. Every value may also be written as a reference (a
variable, an attribute or a call without arguments) where the dialect allows one: the reference's
grammars accept them, and a program that uses one fails at run time rather than being illegal.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from functools import lru_cache

from wapii_core.grammar.lark import WS, Entry, LarkWriter, alternatives, escape, literal, regex, sequence
from wapii_core.grammar.types import Any_, Arr, Bool, Int, Null, Num, Obj, OneOf, Str, VType


def _ascii_class(banned: set[str]) -> str:
    """Visible ASCII (``!`` to ``~``) less ``banned``, as the inside of a regex class."""
    return _ascii_class_of(frozenset(banned))


@lru_cache(maxsize=256)
def _ascii_class_of(banned: frozenset[str]) -> str:
    return "".join(c if c.isalnum() else f"\\x{ord(c):02x}" for c in map(chr, range(0x21, 0x7F)) if c not in banned)


PATH_ESCAPE = "%(?:[014-7][0-9A-Fa-f]|2[0-2457-9A-Da-d]|3[0-9A-Ea-e])"
"""The ``%`` escape of an ASCII character that a path value may hold: every one but those the judge
(which percent-decodes the URL before matching it, metrics.md §4) or a URL parser would read as
structure: ``%2F`` (``/``: another segment), ``%3F`` (``?``), ``%23`` (``#``), ``%26`` (``&``: no
placeholder matches it) and ``%2E`` (``.``: ``%2e%2e`` is a dot segment to a URL parser)."""


def path_value_chars(also_excluded: str) -> str:
    """A regex for one character of a path parameter's value written into a URL string: visible
    ASCII other than what structures a URL (``/?&#``), a backslash or ``also_excluded`` (the
    string's quote …), or a :data:`PATH_ESCAPE` (URI decoding throws on a lone ``%`` and on an
    escape that is not UTF-8, such as ``%ad``)."""
    return f"(?:[{_ascii_class(set('/?&#%' + chr(92) + also_excluded))}]|{PATH_ESCAPE})"


def path_text(also_excluded: str, extra: str | None = None) -> str:
    """A regex for a path parameter's value written into a URL string: one or more characters of
    :func:`path_value_chars` (or ``extra`` units, such as an interpolation), but not ``.`` or
    ``..``, which URL parsers resolve away (the segment, or the one before it, disappears)."""
    banned = set('/?&#%.' + chr(92) + also_excluded)
    other = f"[{_ascii_class(banned)}]|{PATH_ESCAPE}" + (f"|{extra}" if extra else "")
    unit = f"(?:{other}{'' if '.' in also_excluded else '|[.]'})"
    if "." in also_excluded:
        return f"{unit}+"
    return f"(?:[.]*(?:{other}){unit}*|[.]{{3,}})"


def header_literal(quote: str, also_excluded: str = "") -> str:
    """A regex for a ``quote``-delimited string literal holding a header value: empty, or a visible
    ASCII character then printable ASCII ones; no quote, backslash or ``also_excluded`` inside."""
    chars = _ascii_class({quote, "\\", *also_excluded})
    return f"{escape(quote)}(?:[{chars}][ {chars}]*)?{escape(quote)}"


class Dialect(ABC):
    """How one programming language writes literal values (regexes in the Rust ``regex`` syntax)."""

    string: str
    """Any string literal."""
    reference: str | None
    """A variable or expression standing for a value; None where the language's grammar allows none."""
    true: str
    false: str
    null: str
    keywords: tuple[str, ...] = ()
    """Words the reference pattern matches that are not references (``True`` in Python)."""
    header_string: str = ""
    """A string literal of visible ASCII then printable ASCII, without escapes (a header value)."""
    integer = r"-?(?:0|[1-9][0-9]*)"  # no leading zeros: Python rejects them, strict JavaScript too
    number = r"-?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
    object_open, object_close = "{", "}"
    colon = ":"
    array_open, array_close = "[", "]"

    @abstractmethod
    def key(self, name: str) -> str:
        """A regex for the key ``name`` of an object literal (bare or quoted, as the language allows)."""

    @abstractmethod
    def any_key(self) -> str:
        """A regex for any key of an object literal."""

    @abstractmethod
    def string_of(self, values: tuple[str, ...]) -> str:
        """A regex for a string literal whose value is one of ``values``."""


class ValueRules:
    """Rules for value types in one dialect, written into one :class:`LarkWriter`."""

    def __init__(self, writer: LarkWriter, dialect: Dialect) -> None:
        self.w = writer
        self.d = dialect

    def _terminal(self, pattern: str, prefix: str) -> str:
        return self.w.shared_terminal(pattern, prefix)

    def _with_reference(self, parts: list[str]) -> str:
        if self.d.reference is not None:
            parts = parts + [self.reference()]
        return alternatives(parts)

    def reference(self) -> str:
        """The terminal for a reference to a variable (the dialect must allow references)."""
        assert self.d.reference is not None
        if not self.d.keywords:
            return self._terminal(self.d.reference, "REF")
        words = "|".join(escape(k) for k in self.d.keywords)
        return self.w.shared(("reference", self.d.reference, self.d.keywords), "REF",
                             lambda _: f"{self.w.lexeme(self.d.reference)} & ~{regex(f'(?:{words})')}")

    def key(self, name: str) -> str:
        """The terminal for key ``name`` with its separator (one lexeme: see :mod:`.lark`)."""
        return self._terminal(self.w.separated(self.d.key(name), self.d.colon), "KEY")

    def any_key(self) -> str:
        """The terminal for any key with its separator."""
        return self._terminal(self.w.separated(self.d.any_key(), self.d.colon), "ANYKEY")

    def rule(self, kind: VType) -> str:
        """The name of the rule for values of type ``kind``."""
        return self.w.shared(("value", kind), "v", lambda name: self._body(kind, name))

    def _body(self, kind: VType, name: str) -> str:
        d = self.d
        if isinstance(kind, Str):
            pattern = d.string if kind.enum is None else d.string_of(kind.enum)
            if kind.header and kind.enum is None and d.header_string:
                pattern = d.header_string
            return self._with_reference([self._terminal(pattern, "STR")])
        if isinstance(kind, Int):
            if kind.enum is None:
                return self._with_reference([self._terminal(d.integer, "INT")])
            return self._with_reference([self._terminal("|".join(escape(str(v)) for v in kind.enum), "INTS")])
        if isinstance(kind, Num):
            return self._with_reference([self._terminal(d.number, "NUM")])
        if isinstance(kind, Bool):
            return self._with_reference([literal(d.true), literal(d.false)])
        if isinstance(kind, Null):
            return literal(d.null)
        if isinstance(kind, Arr):
            return self._with_reference([sequence(self.rule(kind.item), d.array_open, d.array_close)])
        if isinstance(kind, Obj):
            return self._with_reference([self.object(kind)])
        if isinstance(kind, OneOf):
            return alternatives([self.rule(option) for option in kind.options])
        if isinstance(kind, Any_):
            return self._any(name)
        raise TypeError(f"unknown value type {kind!r}")

    def object(self, kind: Obj) -> str:
        """``{ members }`` for an object type (no reference alternative)."""
        entries = [Entry(self.key(p.name), self.rule(p.type), p.required and kind.unique) for p in kind.props]
        extra = (self.any_key(), self.rule(kind.extra)) if kind.extra is not None else None
        inner = self.w.members(entries, extra)
        return f"{literal(self.d.object_open)} {WS}? {inner} {WS}? {literal(self.d.object_close)}"

    def _any(self, name: str) -> str:
        d = self.d
        scalars = [self._terminal(d.string, "STR"), self._terminal(d.number, "NUM"), literal(d.true),
                   literal(d.false), literal(d.null)]
        members = self.w.members([], (self.any_key(), name))
        composite = [sequence(name, d.array_open, d.array_close),
                     f"{literal(d.object_open)} {WS}? {members} {WS}? {literal(d.object_close)}"]
        return self._with_reference(scalars + composite)
