"""The grammar of a legal aiohttp request: ``<method>(url, <keyword>=…, …)`` after ``    async with session.``.

Written by :class:`wapii_core.kits.python.PythonCallGrammar` (see there for the call's rules): the region
starts after the starter's ``    async with session.`` and ends with the call's closing parenthesis
(a program that ends there still issues its request: the extraction closes the header). aiohttp
refuses booleans in a query (a boolean query parameter is offered as a string only) and ``None`` as
a header value (none is offered); every method takes a body. No ``timeout=``: aiohttp's is a
``ClientTimeout`` (a bare number is its legacy form, and a huge one ends the program with an
``OverflowError`` before the request).
"""

from __future__ import annotations

from pathlib import Path

from wapii_core.api import Setup
from wapii_core.kits.grammar import Constraint, SpecIndex, adapter_constraint, load_api
from wapii_core.kits.python import PythonCallGrammar

from .library import AIOHTTP
from .prompt import ANCHOR

VERSION = 6
"""Bumped whenever the grammar written for a spec changes (cached grammars are then rebuilt)."""


def build_constraint(index: SpecIndex, setup: Setup, references: bool = True, compact: bool = False) -> Constraint:
    """The constraint for one spec and setup (not cached: see :func:`constraint`)."""
    api = load_api(index)
    grammar = PythonCallGrammar(api, AIOHTTP, references, compact, timeout=False)
    return Constraint(grammar.text(setup, ANCHOR), ANCHOR, AIOHTTP.adapter, api.notes, tuple(grammar.endpoints))


def constraint(spec: Path | str | SpecIndex, setup: Setup, *, references: bool = True,
               compact: bool = False) -> Constraint:
    """The constraint for one spec and setup, cached per spec sha256 (see :func:`wapii_core.kits.grammar.adapter_constraint`);
    the options as in the axios grammar."""
    return adapter_constraint(AIOHTTP.adapter, VERSION, spec, setup, build_constraint, references=references,
                              compact=compact)
