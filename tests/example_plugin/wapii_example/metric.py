"""The ``verdict_histogram`` metric provider: how many samples got each verdict."""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from wapii_core.api import Dataset, Metric, SampleResult


class VerdictHistogram:
    """``{"verdicts": {verdict: samples}, "share_correct": rate}``."""

    values = {
        "verdicts.*": Metric("count", "number of samples with that verdict"),
        "share_correct": Metric("rate", "share of samples judged correct"),
    }

    def aggregate(self, results: Iterable[SampleResult], dataset: Dataset) -> dict[str, Any]:
        verdicts = Counter(r.verdict for r in results)
        total = sum(verdicts.values())
        return {"verdicts": dict(sorted(verdicts.items())),
                "share_correct": verdicts["correct"] / total if total else None}
