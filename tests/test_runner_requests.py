"""What the runner hands a backend: every pending request in one call, each sample's prompt built once."""

from __future__ import annotations

from wapii_core.base.model import Prompt, Sample
from wapii_core.run.generate import pending_requests


def samples(count: int) -> list[Sample]:
    return [Sample(api="a", index=i, task=f"t{i}", config={"url": "u", "method": "get", "headers": {}})
            for i in range(count)]


def test_each_samples_prompt_is_built_once_and_shared_by_its_draws():
    built: list[str] = []

    def prompt(sample: Sample) -> Prompt:
        built.append(sample.id)
        return Prompt(text=f"p {sample.id}", starter="s")

    todo = pending_requests(samples(3), 4, set(), prompt)
    assert built == ["a/0", "a/1", "a/2"]
    assert [r.key for r in todo] == [f"a/{i}#{d}" for i in range(3) for d in range(4)]
    assert all(r.prompt.text == f"p {r.sample.id}" for r in todo)


def test_finished_draws_are_left_out_and_a_finished_sample_builds_no_prompt():
    built: list[str] = []

    def prompt(sample: Sample) -> Prompt:
        built.append(sample.id)
        return Prompt(text="p", starter="s")

    finished = {"a/0#0", "a/0#1", "a/1#1"}
    todo = pending_requests(samples(2), 2, finished, prompt)
    assert [r.key for r in todo] == ["a/1#0"] and built == ["a/1"]
