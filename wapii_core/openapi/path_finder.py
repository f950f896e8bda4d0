"""Which operation openapi-core validates a request against: its path finder, replayed on the plain document.

openapi-core's ``APICallPathFinder`` does not look the request's template up. It matches the URL
``urljoin(server, template)`` against every path of the spec, in this order: first the templates
the URL ends with, literally, in spec order; then the others whose pattern (each ``{name}`` a
``[^/]*``) the URL contains, anchored at its end, fewest variables first. The first of these that
defines the method and one of whose servers matches what precedes the path in the URL is the one
validated against. So with a second server ``https://host/v1/projects/{gid}``, a request to
``/projects/{gid}/tasks`` is checked against ``/tasks`` when that comes first in the spec.
:func:`find` gives the same answer, with the same laziness (a malformed template raises only
when openapi-core would reach it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterator
from urllib.parse import urljoin, urlparse


MAX_PLACEHOLDERS = 50
"""More placeholders than this in one path: the full walk (as many regular-expression groups)."""


class FinderUnsupported(Exception):
    """A spec shape this replay does not follow (servers on paths or operations, odd nodes)."""


@dataclass(frozen=True)
class Found:
    """The path item and operation openapi-core picks, and the path variables it read from the URL."""

    template: str
    item: dict[str, Any]
    operation: dict[str, Any]
    variables: dict[str, str]


def request_url(server: str, template: str) -> str:
    """The URL openapi-core matches for a request to ``template`` (``server`` ends with ``/``)."""
    return urljoin(server, template.lstrip("/"))


def find(document: dict[str, Any], deref: Callable[[Any], Any], method: str, name: str) -> Found | None:
    """The path item and operation for ``method`` at URL ``name`` (None where openapi-core finds none).

    ``deref`` follows ``$ref`` chains as openapi-core's resolver does. Raises what openapi-core
    raises for a malformed template or server URL, and :class:`FinderUnsupported` for shapes
    this replay does not follow.
    """
    paths = deref(document.get("paths"))
    if not isinstance(paths, dict):
        raise FinderUnsupported("paths is not an object")
    servers = deref(document.get("servers"))
    if not servers:
        servers = [{"url": "/"}]
    elif not isinstance(servers, list):
        raise FinderUnsupported("servers is not a list")
    shortlist = _Shortlist.of(tuple(paths))
    if shortlist is not None:
        # every path is well formed, so only those whose literal segments the URL can have need a look
        # (the others neither are a suffix of it nor match its end); the templates the URL ends with come
        # first, in spec order; the patterns openapi-core works out meanwhile only matter when none of
        # those is taken, so they are left to the walk below
        paths = {template: paths[template] for template in shortlist.for_url(name)}
        for template, node in paths.items():
            if name.endswith(template):
                found = _operation(deref, servers, method, name, template, node, {})
                if found is not None:
                    return found
    for template, node, variables in _candidates(paths, name):
        found = _operation(deref, servers, method, name, template, node, variables)
        if found is not None:
            return found
    return None


def _operation(deref: Callable[[Any], Any], servers: list[Any], method: str, name: str, template: str, node: Any,
               variables: dict[str, str]) -> Found | None:
    """The candidate path's operation for ``method`` when it has one and one of its servers matches."""
    item = deref(node)
    if not isinstance(item, dict):
        raise FinderUnsupported(f"the path item {template!r} is not an object")
    if method not in item:
        return None
    operation = deref(item[method])
    if not isinstance(operation, dict) or "servers" in item or "servers" in operation:
        raise FinderUnsupported(f"{method} {template}: an operation that is not an object, or its own servers")
    resolved = template.format(**variables) if variables else template
    for server in servers:
        server = deref(server)
        url = server.get("url") if isinstance(server, dict) else None
        if not isinstance(url, str):
            raise FinderUnsupported("a server without a url")
        if _server_matches(url, name.rsplit(resolved, 1)[0]):
            return Found(template, item, operation, variables)
    return None


class _Shortlist:
    """A spec's paths by one literal segment a URL must have for them to match it (see :meth:`for_url`)."""

    def __init__(self, templates: tuple[str, ...]) -> None:
        self.templates = templates
        self.by_segment: dict[tuple[int, str], list[int]] = {}  # (position from the end, text) -> paths
        self.anywhere: list[int] = []  # paths without such a segment: always looked at
        for index, template in enumerate(templates):
            shape = _segments(template)
            count, literal = shape if shape is not None else (0, ())
            key = next(((position, text) for position, text in literal if position != -count), None)
            if key is None:
                self.anywhere.append(index)
            else:
                self.by_segment.setdefault(key, []).append(index)
        self.positions = sorted({position for position, _ in self.by_segment}, reverse=True)

    @staticmethod
    @lru_cache(maxsize=64)
    def of(templates: tuple[Any, ...]) -> "_Shortlist | None":
        """The shortlist of a spec's paths; None unless every path is a string whose placeholders
        openapi-core reads without raising (a malformed path must be met in openapi-core's order)."""
        try:
            if not all(isinstance(t, str) and len(_placeholders(t)) <= MAX_PLACEHOLDERS for t in templates):
                return None
        except ValueError:
            return None
        return _Shortlist(templates)

    def for_url(self, name: str) -> list[str]:
        """In spec order, every path that can be a literal suffix of ``name`` or whose pattern can match
        its end. A path with a literal segment after its first (``tasks`` in ``/projects/{gid}/tasks``)
        is one only when the URL has that text at the same place from its end: :func:`_may_match` asks
        that of every such segment, and a literal suffix has them all."""
        segments = name.split("/")
        found = list(self.anywhere)
        for position in self.positions:
            if -position > len(segments):
                break
            found += self.by_segment.get((position, segments[position]), ())
        return [self.templates[index] for index in sorted(found)]


def _candidates(paths: dict[Any, Any], name: str) -> Iterator[tuple[str, Any, dict[str, str]]]:
    """openapi-core's ``TemplatePathsIterator``: literal suffixes as met, then patterns by variable count."""
    templated = []
    segments = name.split("/")
    for template, node in list(paths.items()):
        if not isinstance(template, str):
            raise FinderUnsupported("a path that is not a string")
        if name.endswith(template):
            yield template, node, {}
        elif _may_match(_segments(template), segments):
            variables = _parser(template, "$")(name, False)
            if variables is not None:
                templated.append((template, node, variables))
    yield from sorted(templated, key=lambda found: len(found[2]))


@lru_cache(maxsize=4096)
def _segments(template: str) -> tuple[int, tuple[tuple[int, str], ...]] | None:
    """What a URL's segments must hold for the template's pattern to match its end: ``(count,
    ((position from the end, text), ...))`` for the segments without a placeholder, the last first
    (the first segment need only end with its text: position ``-count``). None when a placeholder
    holds a ``/``; raises openapi-core's ``ValueError`` for an unmatched ``{``."""
    if any("/" in name for name in _placeholders(template)):
        return None
    parts = template.split("/")
    count = len(parts)
    literal = [(index - count, part) for index, part in enumerate(parts) if "{" not in part]
    return count, tuple(reversed(literal))


def _may_match(template: tuple[int, tuple[tuple[int, str], ...]] | None, name: list[str]) -> bool:
    """False only where the template's pattern cannot match the end of the URL: it has more segments,
    or a segment without placeholders differs from the URL's (the first one: is no suffix of it).
    Saves compiling a regular expression for nearly every path of a large spec."""
    if template is None:
        return True
    count, literal = template
    if count > len(name):
        return False
    for position, text in literal:
        if not (name[position].endswith(text) if position == -count else name[position] == text):
            return False
    return True


def _placeholders(template: str) -> list[str]:
    """The ``{name}`` placeholders of a template as openapi-core's ``PathParser`` reads them."""
    names = []
    i = 0
    while i < len(template):
        start = template.find("{", i)
        if start == -1:
            break
        end = template.find("}", start + 1)
        if end == -1:
            raise ValueError(f"Unmatched '{{' in template: {template!r}")
        names.append(template[start + 1:end])
        i = end + 1
    return names


def _server_matches(url: str, pattern: str) -> bool:
    """openapi-core's ``TemplateServersIterator`` test of one server (no base URL given)."""
    if not (url.startswith("//") or "://" in url):
        pattern = urlparse(pattern).path
    if (url[:-1] if url.endswith("/") else url) == pattern:
        return True
    return _parser(url, "")(pattern, True) is not None


@lru_cache(maxsize=4096)
def _parser(template: str, post_expression: str) -> Callable[[str, bool], dict[str, str] | None]:
    """openapi-core's ``PathParser``: ``(text, full) -> variables``, by search or by full match."""
    parts: list[str] = []
    names: dict[str, str] = {}
    i = 0
    while i < len(template):
        start = template.find("{", i)
        if start == -1:
            parts.append(re.escape(template[i:]))
            break
        end = template.find("}", start + 1)
        if end == -1:
            raise ValueError(f"Unmatched '{{' in template: {template!r}")
        parts.append(re.escape(template[i:start]))
        group = f"g{len(names)}"
        names[group] = template[start + 1:end]
        parts.append(f"(?P<{group}>[^/]*)")
        i = end + 1
    compiled = re.compile("".join(parts) + post_expression)

    def match(text: str, full: bool) -> dict[str, str] | None:
        found = compiled.fullmatch(text) if full else compiled.search(text)
        return None if found is None else {name: found.group(group) for group, name in names.items()}

    return match
