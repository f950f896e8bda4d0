"""A run's task set: the selected samples (``--api``, ``--limit``) that the backend holds work for.

A replay file (or directory) for some samples of a dataset (a paper's artifact for one API, a
hand-picked set) judges exactly those samples: they are the run's tasks, recorded in run.json as
``task_set`` so that ``wapii evaluate`` and a resumed run judge the same ones, and reports say
"3 of 26 tasks". A backend that generates for any sample (``tasks()`` answers ``None``) takes every
selected sample.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wapii_core.base.errors import InputError, WapiiError
from wapii_core.base.model import Sample


def backend_tasks(samples: list[Sample], held: set[str] | None,
                  source: Path | None) -> tuple[list[Sample], dict[str, Any] | None]:
    """``(the run's samples, run.json's task_set)``: the selected ``samples`` among ``held`` (the ids
    a backend holds work for, ``None``: all of them), in dataset order. ``source`` (the generations
    file) is named in the error for a selection it holds nothing for."""
    if held is None:
        return samples, None
    chosen = [s for s in samples if s.id in held]
    if not chosen:
        problem = (f"holds no program for any of the {len(samples)} selected samples (its {len(held)} are for "
                   "others: check --api and --limit)")
        raise InputError(source, problem) if source is not None else WapiiError(f"the backend {problem}")
    return chosen, {"by": "backend", "samples": [s.id for s in chosen]}


def recorded_tasks(samples: list[Sample], task_set: dict[str, Any] | None) -> list[Sample]:
    """The run's samples as run.json's ``task_set`` recorded them (every selected one without it)."""
    if not task_set:
        return samples
    ids = set(task_set.get("samples") or ())
    return [s for s in samples if s.id in ids]
