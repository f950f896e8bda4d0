"""The prompt and the oracle's program every Java adapter builds the same way, around the pieces
that are its library's own (imports, the client, how a call opens, the builder calls after the URL).

Starter per setup: ``imports`` the task comment and the imports; ``full`` also the class, ``main``,
the client and the call's start; ``argument`` opens the call on the URL (the query, appended with
``+``, and the builder calls follow).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from typing import Any, Callable

from wapii_core.base.model import Prompt, Sample
from wapii_core.base.protocols import Dataset
from wapii_core.base.setups import Setup
from wapii_core.jvm.javasource import java_string
from wapii_core.jvm.render import java_encoded_url, java_query_string

CLOSE = "\n    }\n}\n"


@dataclass(frozen=True)
class JavaProgram:
    """What one Java library's starter and oracle program are made of."""

    package: str
    """The plugin package holding ``prompt_template.md``."""
    syntax: str
    """The call's syntax as the prompt shows it."""
    call_start: str
    """Where the model's call starts (what the extractor looks for)."""
    imports: str
    open: str
    """The class, ``main`` and the client, up to the call."""
    call: str
    """The call's start in the ``full`` setup, e.g. ``client.send(HttpRequest.newBuilder()``."""
    argument: str
    """The call opened on the URL in the ``argument`` setup, ``{url}`` for the quoted URL."""
    argument_close: str
    """What closes the ``argument`` setup's URL expression."""
    url_call: str
    """The builder call that sets the URL, ``{url}`` for the quoted URL with its query."""
    builder_tail: Callable[[dict[str, Any]], str]
    """The builder calls after the URL (headers, method, body) through the end of the statement."""
    response_type: str = ""
    """The type of what the call's statement gives (a workflow's oracle assigns it to ``response``);
    this and the three below are what a library that runs workflow tasks names (empty: it runs none)."""
    status: str = ""
    """``response``'s status code, as an expression."""
    retry_after: str = ""
    """``response``'s ``Retry-After`` header (or null), as an expression."""
    answer_text: str = ""
    """``response``'s body as a String, as an expression."""

    def starter(self, sample: Sample, setup: Setup) -> str:
        """The prompt's starter code for ``setup``."""
        head = "".join(f"// {line}\n" for line in " ".join(sample.task.split()).splitlines() or [""]) + self.imports
        if setup is Setup.imports:
            return head
        if setup is Setup.full:
            return head + self.open + "        " + self.call
        if setup is Setup.argument:
            return head + self.open + "        " + self.argument.format(url=java_string(java_encoded_url(sample.config["url"])))
        raise ValueError(f"unknown setup {setup!r}")

    def prompt(self, sample: Sample, setup: Setup, dataset: Dataset) -> Prompt:
        """The prompt: the package's template filled in, then the starter code."""
        template = resources.files(self.package).joinpath("prompt_template.md").read_text(encoding="utf-8")
        instructions = template.format(syntax=self.syntax, api=dataset.display_names.get(sample.api, sample.api),
                                       extra_instructions="")
        starter = self.starter(sample, setup)
        return Prompt(text=instructions + starter, starter=starter, instructions=instructions, call_start=self.call_start)

    def render(self, config: dict[str, Any], setup: Setup, sample: Sample) -> str:
        """A full program (starter of ``setup`` + completion) that sends exactly ``config``."""
        starter = self.starter(sample, setup)
        query = java_query_string(config.get("params"))
        if setup is Setup.argument:
            if config["url"] != sample.config["url"]:
                raise ValueError(f"the argument setup fixes the URL to {sample.config['url']}; cannot render {config['url']}")
            return (starter + (f" + {java_string(query)}" if query else "") + self.argument_close
                    + self.builder_tail(config) + CLOSE)
        call = self.url_call.format(url=java_string(java_encoded_url(config["url"]) + query)) + self.builder_tail(config)
        if setup is Setup.full:
            return starter + call + CLOSE
        return starter + self.open + "        " + self.call + call + CLOSE
