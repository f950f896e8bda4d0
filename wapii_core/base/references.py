"""References between a workflow task's calls: ``{{N.path}}`` is the value at ``path`` in the JSON
body of the answer to call ``N`` of ``calls``, ``{{sN.path}}`` the same for call ``N`` of ``setup``.

``path`` is dot-separated keys and list indexes (``data.0.gid``). A string that is exactly one
reference takes the referenced value with its JSON type; in any other string the value is spliced in
as text (a string as is, anything else as its compact JSON). References may stand in any string of a
call (URL, header and parameter values, body values at any depth), never in an object's keys.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

REFERENCE = re.compile(r"\{\{(s?)(\d+)\.([^{}\s]+)\}\}")
"""One reference: ``{{`` then ``s`` for a setup call, the call's position, ``.``, the path, ``}}``."""
_LOOSE = re.compile(r"\{\{[^{}]*\}\}")


class UnresolvedReference(ValueError):
    """A reference that names no value (the message says which and why)."""


@dataclass(frozen=True)
class Reference:
    """``{{sN.path}}`` (``setup``) or ``{{N.path}}``."""

    setup: bool
    call: int
    path: str

    def __str__(self) -> str:
        return "{{" + ("s" if self.setup else "") + f"{self.call}.{self.path}" + "}}"

    @classmethod
    def whole(cls, text: str) -> "Reference | None":
        """The reference ``text`` is exactly (its value keeps its JSON type), else None."""
        m = REFERENCE.fullmatch(text)
        return cls(m.group(1) == "s", int(m.group(2)), m.group(3)) if m else None

    @classmethod
    def parts(cls, text: str) -> list["str | Reference"]:
        """``text`` as its literal pieces and references, in order (no empty piece): what an
        adapter's oracle splices, each reference's value as text (:func:`as_text`)."""
        out: list[str | Reference] = []
        at = 0
        for m in REFERENCE.finditer(text):
            if m.start() > at:
                out.append(text[at:m.start()])
            out.append(cls(m.group(1) == "s", int(m.group(2)), m.group(3)))
            at = m.end()
        if at < len(text):
            out.append(text[at:])
        return out

    @classmethod
    def all_in(cls, value: Any) -> "list[Reference]":
        """Every reference in the strings of ``value`` (a call, or any part of one), in order."""
        return find_references(value)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def find_references(value: Any) -> list[Reference]:
    """Every reference in the strings of ``value`` (a call, or any part of one), in order."""
    return [Reference(m.group(1) == "s", int(m.group(2)), m.group(3))
            for text in _strings(value) for m in REFERENCE.finditer(text)]


def malformed_references(value: Any) -> list[str]:
    """``{{...}}`` texts in ``value`` that look like references but are not (a typo a dataset author made)."""
    return [m.group(0) for text in _strings(value) for m in _LOOSE.finditer(text) if not REFERENCE.fullmatch(m.group(0))]


def lookup(body: Any, path: str) -> Any:
    """The value at ``path`` in ``body``; :class:`UnresolvedReference` where there is none."""
    value = body
    walked: list[str] = []
    for key in path.split("."):
        if isinstance(value, list) and key.isdigit():
            if int(key) >= len(value):
                raise UnresolvedReference(f"{'.'.join(walked) or 'the body'} has {len(value)} items, no item {key}")
            value = value[int(key)]
        elif isinstance(value, dict) and key in value:
            value = value[key]
        else:
            where = ".".join(walked) or "the body"
            kind = "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else json.dumps(value)[:40]
            raise UnresolvedReference(f"{where} is {kind} without {key!r}")
        walked.append(key)
    return value


def as_text(value: Any) -> str:
    """How a value is spliced into a longer string: a string as is, anything else as compact JSON."""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def resolve(value: Any, answers: Sequence[Any], setup_answers: Sequence[Any] = (), *,
            setup_only: bool = False) -> Any:
    """``value`` with every reference replaced by what it names in ``answers`` (the parsed bodies of
    the answers to ``calls``) or ``setup_answers``; ``setup_only`` replaces ``{{sN...}}`` alone
    (what the oracle's program is given: it cannot read the setup's answers). Raises
    :class:`UnresolvedReference` for a reference to a call not answered yet or a path not there."""

    def one(ref_setup: bool, call: int, path: str) -> Any:
        bodies = setup_answers if ref_setup else answers
        name = f"{'setup ' if ref_setup else ''}call {call}"
        if call >= len(bodies):
            raise UnresolvedReference(f"{{{{{'s' if ref_setup else ''}{call}.{path}}}}}: {name} has no answer yet")
        try:
            return lookup(bodies[call], path)
        except UnresolvedReference as exc:
            raise UnresolvedReference(f"{{{{{'s' if ref_setup else ''}{call}.{path}}}}}: in the answer to {name}, {exc}") \
                from None

    def text(string: str) -> Any:
        whole = REFERENCE.fullmatch(string)
        if whole and (whole.group(1) == "s" or not setup_only):
            return one(whole.group(1) == "s", int(whole.group(2)), whole.group(3))

        def splice(m: re.Match[str]) -> str:
            if setup_only and m.group(1) != "s":
                return m.group(0)
            return as_text(one(m.group(1) == "s", int(m.group(2)), m.group(3)))

        return REFERENCE.sub(splice, string)

    if isinstance(value, str):
        return text(value)
    if isinstance(value, dict):
        return {key: resolve(item, answers, setup_answers, setup_only=setup_only) for key, item in value.items()}
    if isinstance(value, list):
        return [resolve(item, answers, setup_answers, setup_only=setup_only) for item in value]
    return value
