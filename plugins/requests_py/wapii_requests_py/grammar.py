"""The grammar of a legal call with requests or httpx: ``<module>.<method>(url, <keyword>=…, …)``.

Written by :class:`wapii_core.kits.python.PythonCallGrammar` (see there for the call's rules): the region
starts after ``<module>.`` and ends with the call's closing parenthesis; with requests, ``headers``
may map the library's own ``Accept``/``Content-Type`` to ``None`` (requests then leaves them out; httpx
refuses a ``None`` value: ``PythonLibrary.none_headers``); httpx's get/delete/head/options shorthands
take no body.
"""

from __future__ import annotations

from pathlib import Path

from wapii_core.api import Setup
from wapii_core.kits.grammar import Constraint, SpecIndex, adapter_constraint, load_api
from wapii_core.kits.python import PythonCallGrammar

from wapii_core.kits.python import PythonLibrary

from .libraries import LIBRARIES

VERSION = 14
"""Bumped whenever the grammar written for a spec changes (cached grammars are then rebuilt)."""


def build_constraint(index: SpecIndex, library: PythonLibrary, setup: Setup, references: bool = True,
                     compact: bool = False) -> Constraint:
    """The constraint for one spec, library and setup (not cached: see :func:`constraint`)."""
    api = load_api(index)
    grammar = PythonCallGrammar(api, library, references, compact, none_headers=library.none_headers)
    anchor = library.module + "."
    return Constraint(grammar.text(setup, anchor), anchor, library.adapter, api.notes, tuple(grammar.endpoints))


def constraint(spec: Path | str | SpecIndex, setup: Setup, adapter: str = "requests_py", *,
               references: bool = True, compact: bool = False) -> Constraint:
    """The constraint of ``adapter`` (``requests_py`` or ``httpx_py``) for one spec and setup, cached
    per spec sha256 (see :func:`wapii_core.kits.grammar.adapter_constraint`); the options as in the axios grammar."""
    library = LIBRARIES[adapter]
    return adapter_constraint(library.adapter, VERSION, spec, setup,
                              lambda index, setup, references, compact: build_constraint(
                                  index, library, setup, references, compact),
                              references=references, compact=compact)
