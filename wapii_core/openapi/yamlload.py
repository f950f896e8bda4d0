"""A fast YAML loader for large documents (OpenAPI specs), equal in result to ``yaml.safe_load``.

PyYAML's ``CSafeLoader`` parses in C but composes and constructs every node in Python, which
costs about three quarters of its time on a 700 KB spec. :func:`load` builds the Python objects
straight from the C parser's event stream instead, resolving plain scalars with the same implicit
resolvers and constructors as ``SafeLoader`` (so ``true`` is ``True``, ``1`` is ``1``, ``~`` is
``None``), with anchors, aliases and ``<<`` merge keys. A document with an explicitly tagged
mapping or sequence (``!!set``, ``!!omap``) is handed to PyYAML's own constructor, and so is
everything when LibYAML is missing.

What remains is mostly LibYAML's own work: on GitHub's 9.5 MB description, about 60 % of the
time is the C parser making its event objects. The Python side keeps its state in locals and
resolves each distinct plain scalar once (OpenAPI repeats ``string``, ``object``, ``true``...).
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

_CParser = getattr(yaml, "CSafeLoader", None)
_IMPLICIT = yaml.resolver.Resolver.yaml_implicit_resolvers
_CONSTRUCTOR = yaml.SafeLoader("")
_MERGE_TAG = "tag:yaml.org,2002:merge"
_NO_KEY = object()
_MERGE = object()


def _plain(value: str, event: ScalarEvent) -> Any:
    """A plain scalar without a tag, resolved and constructed as SafeLoader does."""
    tag = "tag:yaml.org,2002:str"
    for candidate, regex in _IMPLICIT.get(value[0] if value else "", ()):
        if regex.match(value):
            tag = candidate
            break
    if tag == "tag:yaml.org,2002:str":
        return value
    return _constructed(value, tag, event)


def _tagged(event: ScalarEvent) -> Any:
    """A scalar with an explicit tag (``!!str 12``, ``!!binary ...``)."""
    return _constructed(event.value, event.tag, event)


def _constructed(value: str, tag: str, event: ScalarEvent) -> Any:
    if tag == _MERGE_TAG:
        return _MERGE
    construct = _CONSTRUCTOR.yaml_constructors.get(tag)
    if construct is None:
        if tag == "tag:yaml.org,2002:str" or tag.startswith("tag:yaml.org,2002:value"):
            return value
        raise yaml.constructor.ConstructorError(None, None, f"could not determine a constructor for the tag {tag!r}",
                                                event.start_mark)
    return construct(_CONSTRUCTOR, yaml.ScalarNode(tag, value, style=event.style))


def _merge_into(target: dict, source: Any) -> None:
    for part in source if isinstance(source, list) else [source]:
        if not isinstance(part, dict):
            raise yaml.constructor.ConstructorError(None, None, "a merge key needs a mapping or a list of mappings")
        for key, value in part.items():
            target.setdefault(key, value)


def load(text: str | bytes) -> Any:
    """The single document of ``text`` as Python objects (raises ``yaml.YAMLError`` when malformed)."""
    return load_tree(text)[0]


def load_tree(text: str | bytes) -> tuple[Any, bool]:
    """:func:`load`, and whether the result is a tree with string keys: no alias (``*name``) was
    followed, so no object is reachable twice and the document is no larger than its text, and every
    mapping key is a string, so JSON's encoder writes it exactly or refuses it (what a cache may rely on)."""
    if _CParser is None:
        return yaml.safe_load(text), False
    try:
        return _load_events(text)
    except _TaggedCollection:  # rare in specs: let PyYAML construct !!set, !!omap and the like
        return yaml.load(text, Loader=_CParser), False


class _TaggedCollection(Exception):
    """A mapping or sequence with an explicit tag, which only the full constructor handles."""


_PLAIN_COLLECTION_TAGS = (None, "!", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


def _load_events(text: str | bytes) -> tuple[Any, bool]:
    """The document from the C parser's events: the container being filled and its pending key are
    locals (those of the containers around it wait on ``stack``); a plain scalar is resolved once per
    distinct text (``plain``: its value is immutable, so one object can stand for every occurrence)."""
    parser = _CParser(text)
    next_event = parser.get_event
    plain: dict[str, Any] = {}
    anchors: dict[str, Any] = {}
    stack: list[tuple[Any, bool, Any, Any]] = []  # (container, is a list, pending key, merges) around ``top``
    top: Any = None  # the open container (None: the document level)
    in_list = False
    key: Any = _NO_KEY  # the open mapping's key awaiting its value
    merges: list[Any] = []  # what the open mapping's ``<<`` keys merge in, applied at its end
    root: Any = None
    aliases = documents = 0
    string_keys = True
    try:
        while True:
            event = next_event()
            if event is None:
                break
            kind = type(event)
            opened = False
            if kind is ScalarEvent:
                value = event.value
                if event.implicit[0]:  # a plain scalar without a tag: resolved as SafeLoader does
                    resolved = plain.get(value, _NO_KEY)
                    if resolved is _NO_KEY:
                        resolved = plain[value] = _plain(value, event)
                    value = resolved
                elif event.tag is not None and event.tag != "!":
                    value = _tagged(event)
                if event.anchor is not None:
                    anchors[event.anchor] = value
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                if event.tag not in _PLAIN_COLLECTION_TAGS:
                    raise _TaggedCollection
                value = {} if kind is MappingStartEvent else []
                if event.anchor is not None:
                    anchors[event.anchor] = value
                opened = True
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                if not in_list:
                    for source in merges:
                        _merge_into(top, source)
                top, in_list, key, merges = stack.pop()
                continue
            elif kind is AliasEvent:
                if event.anchor not in anchors:
                    raise yaml.composer.ComposerError(None, None, f"found undefined alias {event.anchor!r}",
                                                      event.start_mark)
                value = anchors[event.anchor]
                aliases += 1
            elif kind is DocumentStartEvent:
                documents += 1
                if documents > 1:
                    raise yaml.composer.ComposerError("expected a single document in the stream", None,
                                                      "but found another document", event.start_mark)
                continue
            else:
                continue
            if top is None:
                root = value
            elif in_list:
                top.append(value)
            elif key is _NO_KEY:
                if type(value) is not str:
                    string_keys = False
                    try:
                        hash(value)
                    except TypeError:
                        raise yaml.constructor.ConstructorError(None, None, "found an unhashable key",
                                                                event.start_mark) from None
                key = value
            else:
                if key is _MERGE:
                    merges.append(value)
                else:
                    top[key] = value
                key = _NO_KEY
            if opened:
                stack.append((top, in_list, key, merges))
                top, in_list, key, merges = value, kind is SequenceStartEvent, _NO_KEY, []
    finally:
        parser.dispose()
    return root, aliases == 0 and string_keys
