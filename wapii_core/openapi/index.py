"""OpenAPI index: the server, URL → path-template matching, operations and legal arguments.

Semantics (docs: metrics.md §4-5), mirroring the published WAPIIBench evaluation, which reads
specs with openapi3-parser:

- **server** is the first ``servers[].url``; it is stripped from a URL before matching (when it is
  not a prefix, nothing is stripped).
- **matching** (reference mode): a template matches when the rest of the URL fully matches it with
  each ``{name}`` replaced by ``[^/?&]+`` and every *other* character used as a regular expression
  as it is, *not escaped* (Slack's ``/chat.postMessage`` therefore matches ``/chat_postMessage``).
  ``strict=True`` escapes the literal characters instead.
- **candidates** are ordered by (number of ``{...}`` placeholders, -template length), ties in spec
  order; the first is "the" path.
- **path_params** are captured from the *whole* URL (server included) by an unanchored search of
  the template with each declared path parameter replaced by a greedy ``[^/]+`` group, as the
  reference does. The declared names are those of the ``in: path`` parameters of the path's
  operations, where (as openapi3-parser does) every operation's parameter list is its own
  parameters followed by the path-level ones.
- **legal arguments**: see :meth:`SpecIndex.is_legal`.

Divergences, only where the reference would crash instead of answering: a placeholder that no
operation declares is matched by an uncaptured ``[^/]+``; a template that is not a valid regular
expression in reference mode is matched literally; a parameter or apiKey scheme ``in: cookie`` is
never a legal argument; a request body whose first media type is not an object schema has no legal
properties (an ``allOf`` schema contributes the union of its parts' and its own properties).

An index is cached twice: in process (per file content and path) and on disk, as JSON, under
``cache_dir()/specs/<sha256 of the file>.index.json`` (:mod:`wapii_core.openapi.cache`). A spec
that must be indexed is parsed by the shared reader (:mod:`wapii_core.openapi.parsing`), so the other
consumers of its document do not parse it again.
"""

from __future__ import annotations

import hashlib
import re
import threading
from pathlib import Path
from typing import Any

from wapii_core.base.errors import InputError
import wapii_core.openapi.cache as spec_cache
import wapii_core.openapi.operations as spec_reader
from wapii_core.openapi.operations import Operation, PathItem

CACHE_FORMAT = 3
"""Bumped whenever the cached data's shape or meaning changes (old cache files are then rebuilt)."""

MATCHED_URLS = 4096
"""URLs whose candidates an index remembers (then it starts afresh)."""

_LOCATION_FIELDS = {"header": "headers", "query": "params", "path": "path_params"}
"""Parameter location → the request-config field it is passed in (``cookie`` has none)."""

_PLACEHOLDER = re.compile(r"{.*?}")
_MATCH_VALUE = "[^/?&]+"  # what a placeholder matches when finding candidates
_CAPTURE_VALUE = "[^/]+"  # what a placeholder captures when extracting path_params (reference)


_REGEX_SYNTAX = frozenset("^$*+?{}[]\\|()")
"""Characters with a meaning in a regular expression (``.`` is handled on its own)."""


class _Compiled:
    """How one path item is matched in one mode: its regular expressions, compiled when first needed,
    and checks without them that answer for most paths and URLs (a large spec has hundreds of paths)."""

    __slots__ = ("item", "strict", "parts", "placeholders", "plain", "segments", "_match", "_capture", "groups")

    def __init__(self, item: PathItem, strict: bool) -> None:
        self.item = item
        self.strict = strict
        self.parts = _PLACEHOLDER.split(item.template)
        self.placeholders = len(self.parts) - 1
        # the literal parts are plain when their only regular-expression character is "." (any character but
        # a newline in reference mode, itself in strict mode): then a URL's ends can be compared directly
        self.plain = strict or not any(c in _REGEX_SYNTAX for part in self.parts for c in part)
        # when, besides, no "." is a wildcard and every placeholder is a whole segment, matching is comparing
        # segments: None marks a placeholder (one or more characters, none of "/?&"), a string a literal
        self.segments: list[str | None] | None = None
        if self.plain and (strict or "." not in item.template):
            segments = [None if _PLACEHOLDER.fullmatch(part) else part for part in item.template.split("/")]
            if all(part is None or ("{" not in part and "}" not in part) for part in segments):
                self.segments = segments
        self._match: re.Pattern[str] | None = None
        self._capture: re.Pattern[str] | None = None
        self.groups: dict[str, str] = {}

    def bucket(self) -> tuple[str, Any]:
        """Which URLs can match at all, cheaply: ``("length", n)`` only those of length n (no
        placeholder), ``("segment", s)`` only those whose first segment is s, ``("any", None)`` any."""
        if not self.plain:
            return "any", None
        if not self.placeholders:
            return "length", len(self.item.template)
        head = self.parts[0]
        first, slash, _ = head[1:].partition("/")
        if head.startswith("/") and slash and (self.strict or "." not in first):
            return "segment", first
        return "any", None

    def matches(self, rest: str) -> bool:
        """Whether the template's pattern fully matches ``rest`` (the URL less the server)."""
        if self.segments is not None:
            given = rest.split("/")
            return len(given) == len(self.segments) and all(
                text == part if part is not None else (text != "" and "?" not in text and "&" not in text)
                for part, text in zip(self.segments, given))
        if self.plain:
            head, tail = self.parts[0], self.parts[-1]
            if not self.placeholders:
                return self._same(head, rest)
            if len(rest) < len(head) + len(tail) + self.placeholders or not (
                    self._same(head, rest[:len(head)]) and self._same(tail, rest[len(rest) - len(tail):])):
                return False
        if self._match is None:
            self._match = self._compile(_MATCH_VALUE, {})
        return self._match.fullmatch(rest) is not None

    def values(self, text: str, full: bool) -> dict[str, str]:
        """The declared path parameters' values where the capture pattern (each placeholder ``[^/]+``)
        matches ``text``: all of it when ``full``, else its leftmost match anywhere; empty when none."""
        if not any(self._declared_names()):  # nothing to capture, matched or not
            return {}
        if self.segments is not None:
            return self._segment_values(text, full)
        if self._capture is None:
            groups: dict[str, str] = {}
            self._capture = self._compile(_CAPTURE_VALUE, groups)
            self.groups = groups
        match = self._capture.fullmatch(text) if full else self._capture.search(text)
        return {} if match is None else {self.groups[g]: value for g, value in match.groupdict().items()}

    def _segment_values(self, text: str, full: bool) -> dict[str, str]:
        """:meth:`values` without a regular expression, for a path whose placeholders are whole segments:
        each placeholder then takes everything up to the next ``/`` (the literal after it starts with
        one), so at each start the match is decided, and the leftmost start that matches wins."""
        head, rest = self.parts[0], self.parts[1:]
        names = self._declared_names()
        start = 0
        while start <= len(text):
            at = text.find(head, start)
            if at < 0 or (full and at > 0):
                return {}
            found: dict[str, str] = {}
            position = at + len(head)
            for name, literal in zip(names, rest):
                end = text.find("/", position)
                end = len(text) if end < 0 else end
                if end == position or not text.startswith(literal, end):
                    break
                if name is not None:
                    found[name] = text[position:end]
                position = end + len(literal)
            else:
                if not full or position == len(text):
                    return found
            start = at + 1
        return {}

    def _declared_names(self) -> list[str | None]:
        """For each placeholder, the path parameter it captures (None: undeclared, or declared before)."""
        declared = set(self.item.path_param_names)
        names: list[str | None] = []
        for match in _PLACEHOLDER.findall(self.item.template):
            name = match[1:-1]
            names.append(name if name in declared and name not in names else None)
        return names

    def _same(self, literal: str, text: str) -> bool:
        """``literal`` as the regular expression matches ``text`` exactly (same length)."""
        if self.strict or "." not in literal:
            return literal == text
        return len(literal) == len(text) and all(
            a == b or (a == "." and b != "\n") for a, b in zip(literal, text))

    def _compile(self, value: str, groups: dict[str, str]) -> re.Pattern[str]:
        """The template with each placeholder as ``value``; with ``groups`` given (the capture), each
        declared path parameter as a named group, recorded there."""
        literal = re.escape if self.strict else (lambda s: s)
        declared = set(self.item.path_param_names) if value == _CAPTURE_VALUE else set()
        parts = self.parts
        names = [m[1:-1] for m in _PLACEHOLDER.findall(self.item.template)]
        source = literal(parts[0])
        for i, (name, rest) in enumerate(zip(names, parts[1:])):
            if name in declared and name not in groups.values():
                group = f"g{i}"
                groups[group] = name
                source += f"(?P<{group}>{value})"
            else:
                source += value
            source += literal(rest)
        try:
            return re.compile(source)
        except re.error:  # only reachable in reference mode: treat the template's characters literally
            groups.clear()
            return re.compile(value.join(re.escape(p) for p in parts))


class _SegmentTrie:
    """The paths that are matched segment by segment (:attr:`_Compiled.segments`), as a trie: a URL
    is matched by walking its segments (a literal child, and the placeholder child for any segment
    that is not empty and holds no ``?`` or ``&``), not by trying every path in turn."""

    __slots__ = ("literal", "placeholder", "ends")

    def __init__(self) -> None:
        self.literal: dict[str, _SegmentTrie] = {}
        self.placeholder: _SegmentTrie | None = None
        self.ends: list[int] = []

    def add(self, segments: list[str | None], position: int) -> None:
        node = self
        for segment in segments:
            if segment is None:
                node.placeholder = node.placeholder or _SegmentTrie()
                node = node.placeholder
            else:
                node = node.literal.setdefault(segment, _SegmentTrie())
        node.ends.append(position)

    def matches(self, given: list[str]) -> list[int]:
        """The positions of every path that matches the URL's segments ``given``."""
        found: list[int] = []
        level = [self]
        for text in given:
            value = text != "" and "?" not in text and "&" not in text
            following = []
            for node in level:
                child = node.literal.get(text)
                if child is not None:
                    following.append(child)
                if value and node.placeholder is not None:
                    following.append(node.placeholder)
            if not following:
                return found
            level = following
        for node in level:
            found += node.ends
        return found


class SpecIndex:
    """An OpenAPI 3 spec reduced to what judging needs; build it with :meth:`load`."""

    path: Path
    sha256: str
    server: str

    def __init__(self, data: dict[str, Any], path: Path, sha256: str) -> None:
        self.path = path
        self.sha256 = sha256
        self.server = data["server"]
        self._security: list[tuple[str, str | None, str | None]] = data["security"]
        self._items: list[PathItem] = data["paths"]
        self._by_template = {item.template: item for item in self._items}
        self._order = sorted(
            range(len(self._items)),
            key=lambda i: (len(_PLACEHOLDER.findall(self._items[i].template)), -len(self._items[i].template)),
        )
        self._compiled: dict[bool, list[_Compiled]] = {}
        self._rank = {i: rank for rank, i in enumerate(self._order)}
        self._buckets: dict[bool, dict[tuple[str, Any], list[int]]] = {}
        self._tries: dict[bool, _SegmentTrie] = {}
        self._matched: dict[tuple[str, bool], list[int]] = {}  # the same URLs are matched several times a sample
        self._position = {item.template: i for i, item in enumerate(self._items)}
        self._shapes: list[_Shape] | None = None  # built by the first shadowing() that needs them
        self._shadowing: dict[str, list[str]] = {}
        self._by_first: dict[str | None, set[int]] = {}  # positions by their shape's first segment
        self._by_count: dict[int | None, set[int]] = {}  # positions by their whole shape's segment count
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ loading

    @classmethod
    def load(cls, path: Path | str) -> "SpecIndex":
        """The index of the spec file at ``path`` (memoised in process and cached on disk)."""
        path = Path(path)
        from wapii_core.openapi.parsing import read_bytes

        try:
            raw = read_bytes(path)  # a regular file, bounded (a device or a FIFO is one line)
        except InputError as exc:
            raise InputError(path, f"cannot read the OpenAPI spec: {exc.problem}") from None
        sha = hashlib.sha256(raw).hexdigest()
        key = (sha, str(path.resolve()))
        with _memo_lock:
            cached = _memo.get(key)
        if cached is not None:
            return cached
        data = _decode(spec_cache.read(sha, "index", CACHE_FORMAT))
        if data is None:
            from wapii_core.openapi.parsing import document_of

            data = spec_reader.read(path, document_of(path, raw).data)
            spec_cache.write(sha, "index", CACHE_FORMAT, _encode(data), tree=True, string_keys=True)
        index = cls(data, path, sha)
        with _memo_lock:
            _memo[key] = index
        return index

    # ------------------------------------------------------------------ matching

    def _regexes(self, strict: bool) -> list[_Compiled]:
        compiled = self._compiled.get(strict)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(strict)
                if compiled is None:
                    compiled = [_Compiled(item, strict) for item in self._items]
                    buckets: dict[tuple[str, Any], list[int]] = {}
                    trie = _SegmentTrie()
                    for i in self._order:
                        if compiled[i].segments is not None:
                            trie.add(compiled[i].segments, i)
                        else:
                            buckets.setdefault(compiled[i].bucket(), []).append(i)
                    self._buckets[strict] = buckets
                    self._tries[strict] = trie
                    self._compiled[strict] = compiled
        return compiled

    def _possible(self, rest: str, strict: bool) -> tuple[list[int], list[int]]:
        """The paths (positions) that match ``rest`` segment by segment (found in the trie, no check
        needed), and those whose bucket admits ``rest`` (each still to be matched)."""
        buckets = self._buckets[strict]
        first, slash, _ = rest[1:].partition("/") if rest.startswith("/") else ("", "", "")
        found = [*buckets.get(("any", None), ()), *buckets.get(("length", len(rest)), ()),
                 *(buckets.get(("segment", first), ()) if slash else ())]
        return self._tries[strict].matches(rest.split("/")), found

    def _strip_server(self, url: str) -> str:
        return url[len(self.server):] if self.server and url.startswith(self.server) else url

    def _matching(self, url: Any, strict: bool) -> list[int]:
        if not isinstance(url, str):
            return []
        key = (url, strict)
        found = self._matched.get(key)
        if found is None:
            rest = self._strip_server(url)
            compiled = self._regexes(strict)
            matched, possible = self._possible(rest, strict)
            found = sorted([*matched, *(i for i in possible if compiled[i].matches(rest))], key=self._rank.__getitem__)
            if len(self._matched) >= MATCHED_URLS:
                self._matched.clear()
            self._matched[key] = found
        return list(found)

    def candidates(self, url: str, strict: bool = False) -> list[str]:
        """Templates whose pattern fully matches ``url`` less the server, best candidate first."""
        return [self._items[i].template for i in self._matching(url, strict)]

    def path_params(self, url: str, strict: bool = False) -> dict[str, str]:
        """Path-parameter values of ``url`` for its first candidate (empty when there is none).

        Reference mode searches the whole URL (server included) for the template, unanchored;
        strict mode matches the URL less the server in full, with the literal parts escaped.
        """
        found = self._matching(url, strict)
        if not found:
            return {}
        compiled = self._regexes(strict)[found[0]]
        return compiled.values(self._strip_server(url), True) if strict else compiled.values(url, False)

    def shadowing(self, template: str) -> list[str]:
        """The templates ranked before ``template`` (better candidates, best first) that may match a
        URL that ``template`` matches, in either mode: where a URL matches both, its first candidate,
        and so the path the judge resolves it to, is not ``template``. Conservative: a template
        listed may share no URL with ``template`` (see :meth:`_Shape.may_overlap`); one that shares a URL
        with it is always listed. For a template without placeholders, the URL considered is the one
        it spells (the only one a grammar writes for it), and the answer exact."""
        found = self._shadowing.get(template)
        if found is not None:
            return list(found)
        position = self._position.get(template)
        if position is None:
            return []
        own = self._rank[position]
        if not _PLACEHOLDER.search(template):  # one URL: its candidates in either mode, exactly
            url = self.server + template
            better = {i for strict in (False, True) for i in self._matching(url, strict) if self._rank[i] < own}
            found = [self._items[i].template for i in self._order[:own] if i in better]
        else:
            found = [self._items[i].template for i in self._overlapping(position)]
        self._shadowing[template] = found
        return list(found)

    def _overlapping(self, position: int) -> list[int]:
        """The paths ranked before the one at ``position`` that may share a URL with it (best first)."""
        shapes = self._shape_index()
        mine, own = shapes[position], self._rank[position]
        maybe = self._by_first.get(None, set()) | (
            self._by_first.get(mine.first, set()) if mine.first is not None else set(range(len(self._items))))
        if mine.whole:  # a URL of exactly as many segments: a whole shape of that many, or a partial one
            maybe &= self._by_count.get(len(mine.segments), set()) | self._by_count.get(None, set())
        found = []
        for i in sorted((i for i in maybe if self._rank[i] < own), key=self._rank.__getitem__):
            if not mine.may_overlap(shapes[i]):
                continue
            text = self._items[i].template
            if shapes[i].whole and not _PLACEHOLDER.search(text):  # one URL, spelt out: try it
                if not any(self._regexes(strict)[position].matches(text) for strict in (False, True)):
                    continue
            found.append(i)
        return found

    def _shape_index(self) -> list[_Shape]:
        with self._lock:
            if self._shapes is None:
                shapes = [_Shape.of(item.template) for item in self._items]
                for i, shape in enumerate(shapes):
                    self._by_first.setdefault(shape.first, set()).add(i)
                    self._by_count.setdefault(len(shape.segments) if shape.whole else None, set()).add(i)
                self._shapes = shapes
            return self._shapes

    # ------------------------------------------------------------------ operations

    @property
    def templates(self) -> list[str]:
        """Every path template, in spec order."""
        return [item.template for item in self._items]

    def methods(self, template: str) -> set[str]:
        """Lower-case methods that ``template`` defines (empty for an unknown template)."""
        item = self._by_template.get(template)
        return set(item.operations) if item else set()

    def has_method(self, template: str, method: str) -> bool:
        """Whether ``template`` defines an operation for ``method`` (compared as given, lower-case)."""
        item = self._by_template.get(template)
        return bool(item) and isinstance(method, str) and method in item.operations

    def is_legal(self, name: str, field: str, expected_method: str, expected_template: str | None) -> bool:
        """Whether argument ``name`` in ``field`` is legal for the *expected* endpoint (metrics.md §5).

        In this order: ``headers.Accept`` is always legal, ``headers.Content-Type`` exactly when the
        expected method is put, post or patch; any security scheme's credential is legal (apiKey:
        its name in its location; http / oauth2: ``headers.Authorization``); ``data``: a property
        of the expected operation's request-body schema (first media type); other fields: a
        parameter of that name, where only the *first* parameter of that name in the path-level
        list, then in the operation's list, is looked at, and it must be in the matching location.
        """
        if field == "headers" and name == "Accept":
            return True
        if field == "headers" and name == "Content-Type":
            return expected_method in ("put", "post", "patch")
        for kind, scheme_name, location in self._security:
            if kind == "apiKey":
                if field == _LOCATION_FIELDS.get(location or "") and name == scheme_name:
                    return True
            elif kind in ("http", "oauth2"):
                if field == "headers" and name == "Authorization":
                    return True
        item = self._by_template.get(expected_template) if expected_template is not None else None
        if item is None:
            return False
        operation = item.operations.get(expected_method) if isinstance(expected_method, str) else None
        if field == "data":
            return operation is not None and bool(operation.body_properties) and name in operation.body_properties
        if _first_parameter_in(item.parameters, name, field):
            return True
        return operation is not None and _first_parameter_in(operation.parameters, name, field)


_LIVE_SYNTAX = frozenset("^$*+?[]\\|()")
"""Regex syntax that makes a template's literal text no guide to the URLs it matches (reference mode)."""


class _Shape:
    """What decides cheaply whether two templates may match the same URL (:meth:`may_overlap`): the
    fixed text a URL matching the template starts and ends with (up to a placeholder or a ``.``,
    any character in reference mode, even ``/``), its ``/`` segments, and how many of them lead
    without a ``.`` (a URL's first segments match those one by one)."""

    __slots__ = ("head", "tail", "segments", "aligned")

    def __init__(self, head: str, tail: str, segments: list[str], aligned: int) -> None:
        self.head, self.tail, self.segments, self.aligned = head, tail, segments, aligned

    @classmethod
    def of(cls, template: str) -> "_Shape":
        if any(c in _LIVE_SYNTAX for part in _PLACEHOLDER.split(template) for c in part):
            return cls("", "", [], 0)  # anything: no head, no tail, no segment known
        stops = [i for i, c in enumerate(template) if c in "{}."]
        head = template[:stops[0]] if stops else template
        tail = template[stops[-1] + 1:] if stops else template
        segments = template.split("/")
        aligned = next((i for i, segment in enumerate(segments) if "." in _PLACEHOLDER.sub("", segment)), len(segments))
        return cls(head, tail, segments, aligned)

    @property
    def first(self) -> str | None:
        """The first segment when a URL's must be that very text, else None."""
        if self.aligned > 1 and self.segments[0] == "" and "{" not in self.segments[1]:
            return self.segments[1]
        return None

    @property
    def whole(self) -> bool:
        """Whether every segment is matched on its own (a URL has exactly as many segments)."""
        return bool(self.segments) and self.aligned == len(self.segments)

    def may_overlap(self, other: "_Shape") -> bool:
        """False only when no URL can match both: their heads or tails disagree, or their leading
        segments cannot match the same texts, or their URLs cannot have as many segments (a ``.``
        may match a ``/``, adding segments, never removing one)."""
        if not (self.head.startswith(other.head) or other.head.startswith(self.head)):
            return False
        if not (self.tail.endswith(other.tail) or other.tail.endswith(self.tail)):
            return False
        if not self.segments or not other.segments:
            return True
        if self.whole and other.whole and len(self.segments) != len(other.segments):
            return False
        if self.whole and len(self.segments) < len(other.segments) or \
                other.whole and len(other.segments) < len(self.segments):
            return False
        shared = min(self.aligned, other.aligned)
        return all(_segments_overlap(a, b) for a, b in zip(self.segments[:shared], other.segments[:shared]))


def _segments_overlap(a: str, b: str) -> bool:
    """Whether two template segments may match the same text (placeholders: ``[^/?&]+``)."""
    if "{" in a and "{" in b:
        return True
    if "{" in b:
        a, b = b, a
    if "{" not in a:
        return a == b
    pattern = _MATCH_VALUE.join(re.escape(part) for part in _PLACEHOLDER.split(a))
    return re.fullmatch(pattern, b) is not None


def _first_parameter_in(parameters: tuple[tuple[str, str], ...], name: str, field: str) -> bool:
    """Whether the first parameter called ``name`` is passed in ``field``."""
    for param_name, location in parameters:
        if param_name == name:
            return _LOCATION_FIELDS.get(location) == field
    return False


# ---------------------------------------------------------------------- caches

_memo: dict[tuple[str, str], SpecIndex] = {}
_memo_lock = threading.Lock()


def _encode(data: dict[str, Any]) -> dict[str, Any]:
    """The index data as JSON values (for the disk cache): fresh lists and string-keyed mappings
    of strings and None, so JSON's C encoder writes it exactly."""
    return {
        "server": data["server"],
        "security": [list(scheme) for scheme in data["security"]],
        "paths": [[item.template, [list(p) for p in item.parameters],
                   [[method, [list(p) for p in op.parameters],
                     None if op.body_properties is None else sorted(op.body_properties)]
                    for method, op in item.operations.items()]]
                  for item in data["paths"]],
    }


def _decode(cached: Any) -> dict[str, Any] | None:
    """The index data :func:`_encode` stored (None when ``cached`` is not such data)."""
    if cached is None:
        return None
    try:
        def params(pairs: list[list[str]]) -> tuple[tuple[str, str], ...]:
            return tuple((name, location) for name, location in pairs)

        return {
            "server": str(cached["server"]),
            "security": [(kind, name, location) for kind, name, location in cached["security"]],
            "paths": [PathItem(template=template, parameters=params(path_params),
                               operations={method: Operation(params(op_params),
                                                             None if body is None else frozenset(body))
                                           for method, op_params, body in operations})
                      for template, path_params, operations in cached["paths"]],
        }
    except (KeyError, TypeError, ValueError):
        return None
