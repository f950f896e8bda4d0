"""A fast YAML loader for large documents (OpenAPI specs), equal in result to ``yaml.safe_load``.

PyYAML's ``CSafeLoader`` parses in C but composes and constructs every node in Python, which
costs about three quarters of its time on a 700 KB spec. :func:`load` builds the Python objects
straight from the C parser's event stream instead, resolving plain scalars with the same implicit
resolvers and constructors as ``SafeLoader`` (so ``true`` is ``True``, ``1`` is ``1``, ``~`` is
``None``), with anchors, aliases and ``<<`` merge keys. A document with an explicitly tagged
mapping or sequence (``!!set``, ``!!omap``) is handed to PyYAML's own constructor, and so is
everything when LibYAML is missing.
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


def _scalar(event: ScalarEvent) -> Any:
    value = event.value
    tag = event.tag
    if event.implicit[0]:  # a plain scalar without a tag: resolve it as SafeLoader does
        tag = "tag:yaml.org,2002:str"
        for candidate, regex in _IMPLICIT.get(value[0] if value else "", ()):
            if regex.match(value):
                tag = candidate
                break
    elif tag is None or tag == "!":
        return value
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
    """:func:`load`, and whether the result is a tree: no alias (``*name``) was followed, so no object
    is reachable twice and the document is no larger than its text (what a cache may rely on)."""
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
    parser = _CParser(text)
    aliases = 0
    containers: list[Any] = []
    keys: list[Any] = []  # one pending key per open mapping
    merges: list[list[Any]] = []  # per open mapping: what its ``<<`` keys merge in, applied at its end
    anchors: dict[str, Any] = {}
    root: Any = None
    documents = 0
    try:
        while True:
            event = parser.get_event()
            if event is None:
                break
            kind = type(event)
            if kind is ScalarEvent:
                value = _scalar(event)
            elif kind is MappingStartEvent or kind is SequenceStartEvent:
                if event.tag not in _PLAIN_COLLECTION_TAGS:
                    raise _TaggedCollection
                value = {} if kind is MappingStartEvent else []
            elif kind is MappingEndEvent or kind is SequenceEndEvent:
                closed = containers.pop()
                if type(closed) is dict:
                    keys.pop()
                    for source in merges.pop():
                        _merge_into(closed, source)
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
            if kind is not AliasEvent and event.anchor is not None:
                anchors[event.anchor] = value
            if containers:
                top = containers[-1]
                if type(top) is list:
                    top.append(value)
                elif keys[-1] is _NO_KEY:
                    try:
                        hash(value)
                    except TypeError:
                        raise yaml.constructor.ConstructorError(None, None, "found an unhashable key",
                                                                event.start_mark) from None
                    keys[-1] = value
                else:
                    if keys[-1] is _MERGE:
                        merges[-1].append(value)
                    else:
                        top[keys[-1]] = value
                    keys[-1] = _NO_KEY
            else:
                root = value
            if kind is MappingStartEvent:
                containers.append(value)
                keys.append(_NO_KEY)
                merges.append([])
            elif kind is SequenceStartEvent:
                containers.append(value)
    finally:
        parser.dispose()
    return root, aliases == 0
