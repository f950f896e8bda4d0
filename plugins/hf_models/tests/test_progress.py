"""The hf backend shows its own stages on the run's progress bars: the model load, then tokens."""

from __future__ import annotations

import pytest

from wapii_core.api import BackendOptions, RunContext
from wapii_hf_models.backend import HFBackend


@pytest.mark.slow
def test_the_model_load_and_the_tokens_are_stages_of_their_own(make_reqs):
    from wapii_core.testing import load_dataset

    stages: dict[str, list] = {}

    def progress(stage: str, total: int):
        stages[stage] = [total, 0]

        def advance(n: int = 1) -> None:
            stages[stage][1] += n
        return advance

    demo = load_dataset("demo", None)
    context = RunContext(demo, None, None, progress=progress)
    reqs = make_reqs(3)
    backend = HFBackend(BackendOptions(model="wapii-tiny", extra={"max_new_tokens": "8", "no_cache": "true",
                                                                 "stop_at_call": "false"}), context)
    try:
        generated = list(backend.generate(reqs))
    finally:
        backend.close()
    assert len(generated) == 3
    assert list(stages) == ["loading model", "tokens"]
    assert stages["loading model"] == [1, 1]
    total, made = stages["tokens"]
    assert total == 3 * 8 and 3 <= made <= total
