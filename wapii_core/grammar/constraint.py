"""A constraint: the grammar of a legal call, and where in a program it applies.

An adapter's ``constraint(spec, setup)`` returns one per spec and setup (cached by the spec's
sha256, the adapter and its grammar version: :func:`cached`). The grammar covers the *constrained
region*: the text from just after the adapter's ``anchor`` (``axios.``) to the end of the call.
When the prompt's starter code already holds part of that region (the argument setup's
``get('<url>',``), :meth:`Constraint.prefix` is that part: a backend feeds it to the matcher before
generating, so one grammar per spec serves every sample of the API.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from wapii_core.base.disk_cache import read_entry, write_entry
from wapii_core.base.setups import Setup
from wapii_core.base.paths import cache_dir
from wapii_core.grammar.lark import WS, alternatives

if TYPE_CHECKING:
    from wapii_core.openapi.index import SpecIndex

log = logging.getLogger("wapii.grammar")
_STARTER_CALL = re.compile(r"([a-z]+)\(\s*(.*?)\s*,", re.S)
"""The part of a region that an argument-setup starter holds: ``<method>(<url literal>,``."""


@dataclass(frozen=True)
class Constraint:
    """A grammar (llguidance's Lark dialect) for the constrained region of a program."""

    grammar: str
    anchor: str  # the text that opens the region ("axios."); "" when the grammar covers the whole completion
    adapter: str
    notes: tuple[str, ...] = ()  # the fallbacks taken (looser rules where the spec could not be expressed)
    endpoints: tuple[tuple[str, str, str], ...] = ()
    """(method, URL regex, rule) per endpoint: the rule for what follows the URL argument's comma
    (lets an adapter start a grammar after a starter that already names method and URL). An empty
    method: the URL regex matches the starter's whole part of the region and the rule is what
    follows it (a call that names its URL first, as ``fetch('<url>'``)."""

    @property
    def key(self) -> str:
        """A short digest of the grammar: part of a generation cache key."""
        return hashlib.sha256(self.grammar.encode()).hexdigest()[:16]

    def prefix(self, starter: str) -> str:
        """The part of the region that ``starter`` already holds: the text after its last anchor
        that starts a line ("" when there is none, or when the starter ends with it). An anchor
        inside a line, as in a URL ``…/apps.requests.list``, is not the call."""
        if not self.anchor:
            return ""
        text = "\n" + starter
        at = text.rfind("\n" + self.anchor)
        return "" if at == -1 else text[at + 1 + len(self.anchor):]

    def for_completion(self, starter: str) -> Constraint | None:
        """A constraint whose grammar begins where the completion of ``starter`` begins, for engines
        that cannot be fed the region's start (a server's guided decoding): the grammar itself when
        the starter holds none of the region (``full`` and ``import`` setups); when it holds the
        method and URL (``argument`` setup), the arguments of the endpoints they name. None when
        no endpoint matches them: no completion can be legal (``unsatisfiable``)."""
        prefix = self.prefix(starter)
        if not prefix:
            return replace(self, anchor="")
        call = _STARTER_CALL.fullmatch(prefix)
        rules = [rule for method, pattern, rule in self.endpoints
                 if (call and method == call[1] and re.fullmatch(pattern, call[2]))
                 or (not method and re.fullmatch(pattern, prefix))]
        if not rules:
            return None
        start = f"start: {WS}? ({alternatives(list(dict.fromkeys(rules)))})"
        grammar = re.sub(r"^start: .*$", lambda _: start, self.grammar, count=1, flags=re.M)
        return replace(self, grammar=grammar, anchor="")


CACHE_FORMAT = 1
"""The version of a grammar cache entry's layout (a header line, then the constraint as JSON)."""

_memo: dict[str, Constraint] = {}
_lock = threading.Lock()


def cached(adapter: str, version: int, spec_sha256: str, setup: str, build: Callable[[], Constraint]) -> Constraint:
    """The constraint for (adapter, grammar version, spec, setup): from memory, from the disk cache
    (``<cache>/grammars/``), or built (its fallbacks logged once, at INFO level) and stored."""
    name = f"{adapter}-v{version}-{setup}-{spec_sha256}"
    with _lock:
        found = _memo.get(name)
    if found is not None:
        return found
    path = cache_dir() / "grammars" / f"{name}.json"
    found = _read(path, name)
    if found is None:
        found = build()
        for note in found.notes:
            log.info("%s grammar for spec %s: %s", adapter, spec_sha256[:12], note)
        _write(path, name, found)
    with _lock:
        _memo[name] = found
    return found


Builder = Callable[["SpecIndex", Setup, bool, bool], Constraint]
"""``build(index, setup, references, compact)``: an adapter's constraint for one spec and setup, not cached."""


def adapter_constraint(adapter: str, version: int, spec: "Path | str | SpecIndex", setup: Setup | str,
                       build: Builder, *, references: bool = True, compact: bool = False) -> Constraint:
    """What an adapter's ``constraint(spec, setup, references=, compact=)`` returns: ``build``'s
    constraint for the spec file (or loaded index) ``spec`` and ``setup``, cached per adapter, grammar
    ``version`` (bump it whenever the grammar written for a spec changes), spec sha256, setup and options
    (:func:`cached`). ``references=False``: every value a literal; ``compact``: little whitespace."""
    from wapii_core.openapi.index import SpecIndex

    index = spec if isinstance(spec, SpecIndex) else SpecIndex.load(spec)
    setup = Setup(setup)
    kind = ("import" if setup is Setup.imports else "call") + ("" if references else "-literal") + \
        ("-compact" if compact else "")
    return cached(adapter, version, index.sha256, kind, lambda: build(index, setup, references, compact))


def _read(path: Path, name: str) -> Constraint | None:
    text = read_entry(path, {"format": CACHE_FORMAT, "key": name})
    if text is None:
        return None
    try:
        data = json.loads(text)
        return Constraint(data["grammar"], data["anchor"], data["adapter"], tuple(data["notes"]),
                          tuple(tuple(e) for e in data.get("endpoints", ())))
    except (ValueError, KeyError, TypeError):
        return None


def _write(path: Path, name: str, constraint: Constraint) -> None:
    """Best effort, atomically: an unwritable cache only costs a rebuild."""
    write_entry(path, {"format": CACHE_FORMAT, "key": name}, json.dumps(asdict(constraint)))
