"""``--sample N --seed S``: N tasks drawn from a dataset, stratified by API.

Each API gets a share of the N tasks in proportion to its number of tasks (largest remainders
first, ties broken by the API's name, every API at least one when N allows), drawn without
replacement with a generator seeded by S; the tasks keep their dataset order. The same dataset,
N and S give the same tasks on every machine (Python's ``random.Random`` is stable across versions
for ``sample``).
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def allocation(sizes: dict[str, int], n: int) -> dict[str, int]:
    """How many of ``n`` tasks each API (``sizes``: tasks per API) gets."""
    total = sum(sizes.values())
    if n >= total:
        return dict(sizes)
    floor = {api: min(size, max(1 if n >= len(sizes) else 0, n * size // total)) for api, size in sizes.items()}
    left = n - sum(floor.values())
    remainders = sorted(sizes, key=lambda api: (-(n * sizes[api] % total), api))
    while left > 0:
        for api in remainders:
            if left and floor[api] < sizes[api]:
                floor[api] += 1
                left -= 1
    while left < 0:  # every API's minimum of one overshot n: take back from the largest shares
        api = max(floor, key=lambda a: (floor[a], a))
        floor[api] -= 1
        left += 1
    return floor


def stratified_sample(items: list[T], api_of, n: int, seed: int) -> list[T]:
    """``n`` of ``items`` (``api_of(item)`` names its API), stratified by API, in their original order."""
    groups: dict[str, list[int]] = {}
    for position, item in enumerate(items):
        groups.setdefault(api_of(item), []).append(position)
    shares = allocation({api: len(positions) for api, positions in groups.items()}, n)
    rng = random.Random(seed)
    chosen: set[int] = set()
    for api in sorted(groups):
        chosen.update(rng.sample(groups[api], shares[api]))
    return [item for position, item in enumerate(items) if position in chosen]
