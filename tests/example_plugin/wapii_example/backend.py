"""The ``fixed`` backend: the same completion for every prompt (a backend in twenty lines)."""

from __future__ import annotations

from typing import Any, Iterator

from wapii_core.api import BackendOptions, Generation, GenerationRequest, RunContext


class FixedBackend:
    """Completes every prompt with ``-O completion=TEXT``; ``{method}``, ``{METHOD}`` and ``{url}`` in
    the text become the sample's expected method (as written, upper case) and URL."""

    name = "fixed"
    supports_constraints = False

    def __init__(self, options: BackendOptions, context: RunContext) -> None:
        self.completion = options.extra.get("completion", "")  # -O values arrive as strings

    def generate(self, requests: list[GenerationRequest]) -> Iterator[Generation]:
        for req in requests:
            method, url = req.sample.config["method"], req.sample.config["url"]
            text = self.completion.replace("{method}", method).replace("{METHOD}", method.upper())
            # the program is the prompt's starter code followed by the completion
            yield Generation(sample=req.sample.id, draw=req.draw, code=req.prompt.starter + text.replace("{url}", url))

    def describe(self) -> dict[str, Any]:
        return {"completion": self.completion}
