"""One request as the ``openai`` backend sends it: :class:`Call`.

A leaf module: the backend builds calls, the batch runner (:mod:`.batch`) and the checks before a run
(:mod:`.preflight`) read them, and none of them imports another for the type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wapii_core.api import GenerationRequest


@dataclass
class Call:
    """``request``'s body as sent to the server, and its cache key."""

    request: GenerationRequest
    body: dict[str, Any]
    key: str
    unsatisfiable: bool = False  # constrained: no endpoint fits the starter, the server is not asked
