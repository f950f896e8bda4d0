"""Shards: one run split into N run directories, each holding a fixed part of its (task, draw) pairs.

A pair belongs to shard ``int(sha256("<sample id>#<draw>")[:16 hex digits]) mod N``: a function of
the sample id, the draw and N only, so every machine, every Python and every wapii version agrees
on it (Python's own ``hash()`` is salted per process and would not). Shards are numbered from 0,
like a Slurm array task (``$SLURM_ARRAY_TASK_ID``) or a Kubernetes Indexed Job's pod
(``$JOB_COMPLETION_INDEX``). Each shard is an ordinary, resumable run directory; its ``run.json``
records ``{"index": I, "count": N}`` under ``shard`` (:mod:`wapii_core.run.merge` joins them).
"""

from __future__ import annotations

import re

from wapii_core.base.errors import WapiiError
from wapii_core.base.model import MAX_SHARDS, Shard, shard_of

__all__ = ["MAX_SHARDS", "Shard", "generation_key", "parse_shard", "shard_keys", "shard_of"]

_SPEC = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


def parse_shard(text: str) -> Shard:
    """``"I/N"`` as a :class:`Shard`, or a one-line :class:`WapiiError` saying what is wrong with it."""
    match = _SPEC.fullmatch(text)
    if match is None:
        raise WapiiError(f"--shard {text!r}: expected I/N, shard I (counted from 0) of N, e.g. --shard 0/4")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1:
        raise WapiiError(f"--shard {text!r}: the number of shards must be at least 1")
    if count > MAX_SHARDS:
        raise WapiiError(f"--shard {text!r}: at most {MAX_SHARDS} shards")
    if index >= count:
        raise WapiiError(f"--shard {text!r}: shards are numbered 0 to {count - 1} (counted from 0, as "
                         "$SLURM_ARRAY_TASK_ID and $JOB_COMPLETION_INDEX are)")
    return Shard(index=index, count=count)


def generation_key(sample: str, draw: int) -> str:
    """The key a run stores a sample's draw under (``Generation.key``)."""
    return f"{sample}#{draw}"


def shard_keys(keys: list[str], shard: Shard | None) -> list[str]:
    """The keys of ``keys`` that ``shard`` holds, in their order (all of them without a shard)."""
    return list(keys) if shard is None else [k for k in keys if shard.holds(k)]
