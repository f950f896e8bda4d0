"""A fault plan: the 429s and 5xx a task injects into the mock's answers, by operation and count.

    {"faults": [{"status": 429, "operation": "POST /tasks", "after": 0, "times": 1, "retry_after": 2},
                {"status": 503, "times": 1}]}

Each rule answers ``times`` matching requests with ``status`` after letting ``after`` matching
requests through; ``operation`` (``METHOD /template``, as the spec spells the path) limits it to
one operation (absent: any request). A 429 or 503 carries ``Retry-After: retry_after`` (seconds).
Rules are tried in order; the first that fires answers. A faulted request changes nothing.
"""

from __future__ import annotations

from wapii_core.base.faults import FaultPlan, FaultRule

__all__ = ["FaultPlan", "FaultRule", "FaultState"]


class FaultState:
    """How far one responder is through its plan (per rule: matching requests seen)."""

    def __init__(self, plan: FaultPlan | None) -> None:
        self.rules = list(plan.faults) if plan else []
        self.seen = [0] * len(self.rules)

    def fault(self, operation: str) -> FaultRule | None:
        """The rule that answers this request (``METHOD /template``), counting it, or None."""
        fired = None
        for i, rule in enumerate(self.rules):
            if rule.operation is not None and rule.operation != operation:
                continue
            self.seen[i] += 1
            if fired is None and rule.after < self.seen[i] <= rule.after + rule.times:
                fired = rule
        return fired
