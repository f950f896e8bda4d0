"""Spec documents, each parsed once: one reader for JSON and YAML that every consumer shares.

:func:`read_document` is how the dataset loader, the spec index, schema validation, retrieval
documentation and grammar building get a spec's parsed document. A file ending in ``.json`` is
parsed as JSON, any other as YAML (with :mod:`wapii_core.openapi.yamlload`, equal to ``yaml.safe_load``).
A Swagger 2.0 description is read as its OpenAPI 3.0 conversion (:mod:`wapii_core.openapi.swagger2`).
A document is parsed at most once per process (memoised by the file's sha256); a YAML document
also at most once per user (stored as JSON in :mod:`wapii_core.openapi.cache`, keyed by the same
sha256: reading that back is JSON's C parser, several times faster than YAML's). A JSON document
is not stored again: reading a copy would cost what parsing the file costs. Every reader gets the
same object, to be treated as read-only.

Every problem is a one-line :class:`~wapii_core.base.errors.InputError` naming the file: unreadable,
not UTF-8, or malformed (with line and column).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import wapii_core.openapi.cache as spec_cache
from wapii_core.base import fastjson
from wapii_core.base.errors import InputError
from wapii_core.openapi import swagger2

FORMAT = 1
"""Version of the cached documents' layout (bumped when the parser's results change)."""

FREEZE_BYTES = 1 << 20
"""A document parsed from this many bytes or more is moved, with everything allocated before it, out
of the cyclic collector's reach (``gc.freeze``): it lives as long as the process, and each later
full collection would otherwise walk its million objects again (0.1 s each for GitHub's spec).
Frozen objects are still freed by reference counting."""

SETTLED_NS = 2_000_000_000
"""How long before it is read a file must have last changed for its status to stand for its content."""

MEMO_SIZE = 16
"""Documents kept in memory per process (the most recently read)."""


@dataclass(frozen=True, eq=False)
class SpecDocument:
    """A parsed spec file: ``data`` is shared by every reader of the same content; do not mutate it."""

    path: Path
    sha256: str
    data: Any


def read_document(path: Path | str) -> SpecDocument:
    """The parsed document of the spec file at ``path`` (see the module docstring).

    A file this process has read, whose status (device, inode, size, modification and change
    times) has not changed since, is neither read nor hashed again (13 MB: 30 ms each time); only
    a file last changed :data:`SETTLED_NS` before it was read is remembered so, since a write
    within the same clock tick would leave its times as they were (git's "racy clean" rule).
    """
    path = Path(path)
    stamp = _stamp(path)
    with _lock:
        key = _stamps.get(stamp) if stamp is not None else None
        data = _memo.get(key, _MISSING) if key is not None else _MISSING
        if data is not _MISSING:
            _memo.move_to_end(key)
    if data is not _MISSING:
        return SpecDocument(path, key[0], data)
    document = document_of(path, read_bytes(path))
    if stamp is not None and time.time_ns() - stamp[5] > SETTLED_NS:
        with _lock:
            _stamps[stamp] = (document.sha256, _syntax(path))
            while len(_stamps) > 4 * MEMO_SIZE:
                del _stamps[next(iter(_stamps))]
    return document


def _stamp(path: Path) -> tuple[str, int, int, int, int, int] | None:
    """What identifies the file's content as long as nobody writes it (None: it cannot be stat'ed)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (os.path.abspath(path), info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def _syntax(path: Path) -> str:
    return "json" if path.suffix.lower() == ".json" else "yaml"


def document_of(path: Path, raw: bytes) -> SpecDocument:
    """The parsed document of ``raw``, the content of ``path`` (its suffix chooses the syntax)."""
    sha = hashlib.sha256(raw).hexdigest()
    syntax = _syntax(path)
    key = (sha, syntax)
    with _lock:
        data = _memo.get(key, _MISSING)
        if data is not _MISSING:
            _memo.move_to_end(key)
    if data is _MISSING:
        with _collector_paused():
            if syntax == "json":
                data = parse_json(path, raw)
            else:
                data = spec_cache.read(sha, "document-yaml", FORMAT)
                if data is None:
                    data, tree = parse_yaml_tree(path, raw)
                    spec_cache.write(sha, "document-yaml", FORMAT, data, tree=tree, string_keys=tree)
            if swagger2.is_swagger2(data):
                data = swagger2.converted(path, sha, data)
            if len(raw) >= FREEZE_BYTES:  # before the collector runs again, so it never walks the document
                gc.freeze()
        with _lock:
            _memo[key] = data
            while len(_memo) > MEMO_SIZE:
                _memo.popitem(last=False)
    return SpecDocument(path, sha, data)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a document is built: a parse allocates hundreds of
    thousands of containers, none of them garbage, and every collection would walk them all."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


SOURCE_CAP = 2 * 2**30
"""Bytes of a dataset or spec file read at most (2 GiB; GitHub's description is 12 MB)."""


def read_bytes(path: Path) -> bytes:
    """The file's content; a missing or unreadable file, one that is no regular file (a device, a FIFO)
    or one larger than :data:`SOURCE_CAP` is an :class:`InputError`."""
    from wapii_core.base.regular_files import read_regular

    try:
        return read_regular(path, SOURCE_CAP)
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None


def parse_json(path: Path, raw: bytes) -> Any:
    """``raw`` as JSON; malformed text or text that is not UTF-8 is an :class:`InputError` naming ``path``."""
    try:
        return fastjson.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(path, f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def parse_yaml(path: Path, raw: bytes) -> Any:
    """``raw`` (UTF-8) as one YAML document; a problem is an :class:`InputError` naming ``path``."""
    return parse_yaml_tree(path, raw)[0]


def parse_yaml_tree(path: Path, raw: bytes) -> tuple[Any, bool]:
    """:func:`parse_yaml`, and whether the document is a tree with string keys
    (:func:`wapii_core.openapi.yamlload.load_tree`)."""
    import yaml

    from wapii_core.openapi import yamlload

    try:
        return yamlload.load_tree(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise InputError(path, f"malformed YAML{where}: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise InputError(path, f"malformed YAML: {exc}") from None


_MISSING = object()
_memo: OrderedDict[tuple[str, str], Any] = OrderedDict()
_stamps: dict[tuple[str, int, int, int, int, int], tuple[str, str]] = {}  # file status -> its key in _memo
_lock = threading.Lock()
