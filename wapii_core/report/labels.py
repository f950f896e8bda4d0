"""What a report column (or leaderboard row) is called, and whether its runs can be compared.

Every run is described by the settings that decide what it measures (:data:`FACETS`: dataset,
adapter, model, setup, setting, comparison mode, samples: ``3 of 26 tasks`` for a run over part of its
dataset). A table names the settings its runs
share once, in its caption, and each column only by what sets it apart from the others, so that
three runs differing only in their setting are labelled ``unconstrained`` / ``constrained`` /
``rag`` rather than by three long strings that wrap before the part that differs.

:func:`comparability_notes` says, in words, what makes the columns of a table not directly
comparable: different task sets (a 26-task demo run beside a 395-task run; ``--limit``; ``--api``)
and incomplete runs (a replay with 8 of 395 samples judged). :func:`wrap_label` breaks a label into
lines where it may wrap (the terminal's headers and the plots' axes).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wapii_core.report.model import RunData

FACETS = ("model", "dataset", "adapter", "setup", "setting", "mode", "samples")
"""The settings a column label is made of, in the order they are shown."""


def facets(run: "RunData") -> dict[str, str]:
    """The run's value of every :data:`FACETS` entry, as shown (``model`` falls back to the backend)."""
    r, s = run.run, run.summary
    return {"model": str(r.model or r.backend or "?"), "dataset": str(r.dataset or "?"),
            "adapter": str(r.adapter or "?"), "setup": str(r.setup or "?"),
            "setting": str(r.setting or "unconstrained"),
            "mode": f"{s.mode or r.mode or 'reference'} mode", "samples": sample_count(run)}


def sample_count(run: "RunData") -> str:
    """``26 samples``; ``3 of 26 tasks`` for a run over part of its dataset (``--limit``, ``--api``, a
    partial replay), with its samples when draws make them more (``3 of 26 tasks, 6 samples``) and
    ``X of Y judged`` when some were not judged."""
    s = run.summary
    count = f"{s.samples} samples" if s.judged == s.samples else f"{s.judged} of {s.samples} judged"
    if s.tasks is None or s.tasks_of is None or s.tasks >= s.tasks_of:
        return count
    scope = f"{s.tasks} of {s.tasks_of} tasks"
    return scope if s.judged == s.samples == s.tasks else f"{scope}, {count}"


def is_incomplete(run: "RunData") -> bool:
    """Whether some of the run's samples were not judged (failed generations, a partial replay)."""
    s = run.summary
    return not s.complete or s.judged < s.samples


def labels(runs: list["RunData"]) -> tuple[list[str], str]:
    """(one label per run, the caption naming what every run shares).

    A label holds the facets that differ between the runs; runs alike in every facet are told apart
    by their directory names. An incomplete run's label says so."""
    described = [facets(r) for r in runs]
    differing = [f for f in FACETS if len({d[f] for d in described}) > 1]
    caption = " · ".join(described[0][f] for f in FACETS if f not in differing) if described else ""
    plain = [" · ".join(d[f] for f in differing) for d in described]
    out = []
    for run, label in zip(runs, plain):
        if not label or plain.count(label) > 1:  # alike in every facet: told apart by directory name
            label = f"{run.name}: {label}" if label else run.name
        if is_incomplete(run) and "judged" not in label:
            label += " (partial)" if run.summary.live is not None else " (incomplete)"
        out.append(label)
    return out, caption


def task_set(run: "RunData") -> frozenset[str] | None:
    """The sample ids the run judged (None when its results are not loaded)."""
    return frozenset(r.sample for r in run.results) if run.results is not None else None


def _scope_key(run: "RunData") -> tuple[Any, ...]:
    """What decides a run's tasks when its results are not loaded."""
    r, s = run.run, run.summary
    chosen = tuple((r.task_set or {}).get("samples") or ())  # a partial replay file's samples
    return (r.dataset, r.dataset_sha256, r.limit, tuple(r.apis or ()), chosen, s.samples)


def comparability_notes(runs: list["RunData"], names: list[str]) -> list[str]:
    """Sentences on what keeps the columns ``names`` (one per run) from being compared directly."""
    notes = []
    sets = [task_set(r) for r in runs]
    if all(s is not None for s in sets):
        differ = len(set(sets)) > 1
    else:
        differ = len({_scope_key(r) for r in runs}) > 1
    if differ and len(runs) > 1:
        counts = ", ".join(str(r.summary.judged) for r in runs)
        shared = ""
        if all(s is not None for s in sets):
            common = frozenset.intersection(*sets)  # type: ignore[arg-type]
            shared = f", {len(common)} judged in all of them" if common else ", none judged in all of them"
        notes.append(f"The runs cover different tasks (samples judged: {counts}, in order{shared}): their rates are "
                     "not directly comparable; paired tests use the tasks each pair shares.")
    partial = [(name, r) for name, r in zip(names, runs) if is_incomplete(r)]
    for name, r in partial:
        s = r.summary
        if s.live is not None:
            notes.append(f"{name} is partial, {s.live.line()}; its rates are over the judged samples only.")
            continue
        never = max(0, s.samples - s.judged - len(s.failed_generations))
        notes.append(f"{name} is incomplete: {s.judged} of {s.samples} samples judged "
                     f"({never} never generated, {len(s.failed_generations)} generations failed); its rates "
                     "are over the judged samples only.")
    return notes


def label_pieces(label: str) -> list[str]:
    """``label`` cut after each space, ``_``, ``-``, ``/``, ``:`` or ``·`` (where it may wrap)."""
    return [p for p in re.split(r"(?<=[\s_\-/:·])", label) if p]


def wrap_label(label: str, width: int) -> str:
    """``label`` on lines of at most ``width`` characters, broken where :func:`label_pieces` allows (a piece
    longer than ``width`` is cut)."""
    lines: list[str] = []
    line = ""
    for piece in label_pieces(label):
        while len(piece) > width:
            if line:
                lines.append(line)
                line = ""
            lines.append(piece[:width])
            piece = piece[width:]
        if len((line + piece).rstrip()) > width:
            lines.append(line)
            line = ""
        line += piece
    lines.append(line)
    return "\n".join(part.strip() for part in lines if part.strip())
