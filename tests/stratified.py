"""Stratified subsets of a dataset: the fewest tasks that together show every construct a component
handles, so that a test proves on a few dozen tasks what a sweep of the whole dataset proves (the
sweeps themselves are benchmarks: ``benchmarks/bench_oracle.py``, ``bench_constrained_legality.py``).

:func:`greedy_cover` is the selection (one for every such subset); the constructs are the caller's:
:func:`request_constructs` those of an expected request as an adapter renders and normalises it
(the oracle's subset, :func:`oracle_samples`), ``grammar_constructs`` in
``plugins/hf_models/tests/test_constrained.py`` those of a spec's grammar.
"""

from __future__ import annotations

import re
from typing import Any, Hashable, Iterable, Mapping, Sequence

from wapii_core.base.model import Sample
from wapii_core.base.protocols import Dataset

Construct = tuple[str, str]


def greedy_cover(covers: Mapping[str, Iterable[Hashable]]) -> list[str]:
    """The keys of ``covers`` (each key: the constructs it shows) whose constructs together are all of
    them, chosen greedily: the key adding the most constructs not yet shown first, the mapping's order
    breaking ties (deterministic; at most ln(n)+1 times the fewest possible)."""
    sets = {key: set(found) for key, found in covers.items()}
    left, chosen = set().union(*sets.values()), []
    while left:
        best = max(sets, key=lambda key: len(sets[key] & left))
        chosen.append(best)
        left -= sets[best]
    return chosen


SPECIAL = re.compile(r"[^A-Za-z0-9_.~-]")
"""A character a URL, query or form must escape (or that a renderer must quote in its language)."""


def _text(value: str, where: str) -> set[Construct]:
    out = {(where, "text")}
    if not value:
        out.add((where, "empty text"))
    if SPECIAL.search(value):
        out.add((where, "text to escape"))
    if any(ord(char) > 127 for char in value):
        out.add((where, "non-ASCII text"))
    if "\n" in value or '"' in value or "\\" in value:
        out.add((where, "text to quote"))
    return out


def value_constructs(value: Any, where: str, depth: int = 0) -> set[Construct]:
    """The constructs of one JSON value as a program writes it: its type (text, integer, number,
    boolean, null, array, object), empty and non-empty containers, text to escape or quote, and the
    same of its members two levels deep (deeper, only the type)."""
    if isinstance(value, bool):
        return {(where, "boolean")}
    if isinstance(value, int):
        return {(where, "integer")}
    if isinstance(value, float):
        return {(where, "number")}
    if value is None:
        return {(where, "null")}
    if isinstance(value, str):
        return _text(value, where)
    kind = "array" if isinstance(value, list) else "object"
    out = {(where, kind), (where, f"{'empty' if not value else 'non-empty'} {kind}")}
    if depth >= 2:
        return out
    members = value if isinstance(value, list) else list(value.values())
    for member in members:
        out |= value_constructs(member, where + ("[]" if kind == "array" else "."), depth + 1)
    return out


def request_constructs(dataset: Dataset) -> dict[str, set[Construct]]:
    """Per task, the constructs of its expected request that an adapter's rendering (the oracle) and
    its normaliser (the capture read back into the neutral request) handle differently:

    - the API and each API x method pair (each spec's server, path layout and security; every method
      a library spells its own way);
    - the path: no parameter, one, several; values that are integers, text, or text to escape
      (``A1:B2``, spaces); URLs another path shadows or that shadow another path's (the judge resolves
      them by rank, a normaliser must keep the path exactly as sent);
    - the query: none, required and optional parameters (the spec's), each value type (text, text to
      escape, integers, numbers, booleans: written as text on the wire, read back as typed in
      reference mode; arrays: repeated keys or joined), a query together with a body;
    - headers: each header name the tasks send (``Accept``, ``Authorization``, ``Content-Type``) and
      a request without ``Authorization``;
    - the body: none, each content type the tasks send (WAPIIBench: JSON and multipart; the demo
      dataset's forms are judged whole by the kit's fast-tier check), the top-level value's type, and
      every value construct of :func:`value_constructs` two levels deep (nested objects and arrays,
      booleans, numbers, null, text to escape or quote).

    A construct no task shows is not asked for (WAPIIBench has no top-level array body, no null);
    every construct some task shows is, so a renderer or normaliser that mishandles one fails on
    the subset as on the whole dataset (a query array joined into one value fails ``google_sheet_v4/11``).
    """
    from wapii_core.kits.grammar import SpecIndex, load_api

    indexes = {api: SpecIndex.load(path) for api, path in dataset.specs.items()}
    apis = {api: load_api(index) for api, index in indexes.items()}
    shadowing = {(api, template) for api, found in apis.items() for e in found.endpoints for template in e.shadowed_by}
    covers: dict[str, set[Construct]] = {}
    for sample in dataset.samples:
        config = sample.config
        index = indexes[sample.api]
        template = index.candidates(config["url"])[0]
        endpoint = next((e for e in apis[sample.api].endpoints
                         if e.template == template and e.method == config["method"]), None)
        found = {("api", sample.api), ("method", config["method"]), ("api method", f"{sample.api} {config['method']}")}
        values = index.path_params(config["url"])
        found.add(("path", {0: "no parameter", 1: "one parameter"}.get(len(values), "parameters")))
        for value in values.values():
            found.add(("path", "integer") if str(value).isdigit() else ("path", "text"))
            if SPECIAL.search(str(value)):
                found.add(("path", "text to escape"))
        if endpoint is not None and endpoint.shadowed_by:
            found.add(("url", "shadowed"))
        if (sample.api, template) in shadowing:
            found.add(("url", "shadows another path"))
        params = config.get("params") or {}
        required = {arg.name for arg in endpoint.query if arg.required} if endpoint is not None else set()
        found.add(("query", "parameters" if params else "none"))
        for name, value in params.items():
            found.add(("query", "required" if name in required else "optional"))
            found |= value_constructs(value, "query", depth=1)
        if params and config.get("data") is not None:
            found.add(("query", "with a body"))
        names = {name.lower() for name in config.get("headers") or {}}
        found |= {("header", name) for name in names}
        if "authorization" not in names:
            found.add(("header", "no authorization"))
        data = config.get("data")
        ctype = next((v for k, v in (config.get("headers") or {}).items() if k.lower() == "content-type"), None)
        if data is None:
            found.add(("body", "none"))
        else:
            found.add(("body", str(ctype or "no content type").split(";")[0].strip().lower()))
            found |= value_constructs(data, "body")
        covers[sample.id] = found
    return covers


def oracle_samples(dataset: Dataset) -> list[Sample]:
    """The fewest tasks of ``dataset`` (:func:`greedy_cover`, dataset order) showing every construct of
    :func:`request_constructs`, in dataset order. On WAPIIBench: 21 of 395 tasks showing 79 constructs."""
    chosen = set(greedy_cover(request_constructs(dataset)))
    return [s for s in dataset.samples if s.id in chosen]


def subset(dataset: Dataset, samples: Sequence[Sample]) -> Dataset:
    """``dataset`` with only ``samples`` (its specs and the rest unchanged)."""
    return Dataset(dataset.name, list(samples), dataset.specs, dataset.display_names, dataset.source,
                   dataset.sha256, dataset.prompts_dir)
