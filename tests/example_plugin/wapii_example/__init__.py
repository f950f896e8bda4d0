"""An example third-party wapii plugin.

- backend ``fixed``: completes every prompt with the text given as ``-O completion=...``
  (``{method}`` and ``{url}`` in it are replaced by the sample's expected method and URL);
- metric provider ``verdict_histogram``: how many samples got each verdict.
"""

from __future__ import annotations

from collections import Counter

import pluggy

from wapii_core.api import Metric

hookimpl = pluggy.HookimplMarker("wapii")


class FixedBackend:
    name = "fixed"
    supports_constraints = False

    def __init__(self, options, context):
        self.completion = options.extra.get("completion", "")

    def generate(self, requests):
        from wapii_core.api import Generation

        for req in requests:
            text = self.completion.replace("{method}", req.sample.config["method"]).replace(
                "{url}", req.sample.config["url"])
            yield Generation(sample=req.sample.id, draw=req.draw, code=req.prompt.starter + text)

    def describe(self):
        return {"completion": self.completion}


class VerdictHistogram:
    values = {"*": Metric("count", "number of samples with that verdict")}

    def aggregate(self, results, dataset):
        return dict(sorted(Counter(r.verdict for r in results).items()))


@hookimpl
def register_backends(register):
    register("fixed", FixedBackend, description="a fixed completion for every prompt")


@hookimpl
def register_metrics(register):
    register("verdict_histogram", VerdictHistogram())
