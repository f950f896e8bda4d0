"""The prompt's starter code and the oracle's program for ``java.net.http.HttpClient``.

Starter per setup: ``import`` the task comment and the imports; ``full`` also the class, ``main``,
the client and the call's start ``client.send(HttpRequest.newBuilder()``; ``argument`` instead
opens the builder on the URL: ``client.send(HttpRequest.newBuilder(URI.create("<url>"`` (the query,
appended with ``+``, the method, headers and body follow).
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from wapii_core.api import (Dataset, Prompt, Sample, Setup, java_body_text, java_encoded_url, java_header_text,
                            java_query_string, java_string)

SYNTAX = "client.send(HttpRequest.newBuilder()...build(), HttpResponse.BodyHandlers.ofString())"
CALL_START = "client.send(HttpRequest.newBuilder("
IMPORTS = ("import java.net.URI;\nimport java.net.http.HttpClient;\nimport java.net.http.HttpRequest;\n"
           "import java.net.http.HttpResponse;\n")
OPEN = ("\npublic class Main {\n    public static void main(String[] args) throws Exception {\n"
        "        HttpClient client = HttpClient.newHttpClient();\n")
CLOSE = "\n    }\n}\n"
BODYLESS = {"GET": ".GET()", "DELETE": ".DELETE()"}


def starter_code(sample: Sample, setup: Setup) -> str:
    head = "".join(f"// {line}\n" for line in " ".join(sample.task.split()).splitlines() or [""]) + IMPORTS
    if setup is Setup.imports:
        return head
    if setup is Setup.full:
        return head + OPEN + "        client.send(HttpRequest.newBuilder()"
    if setup is Setup.argument:
        return head + OPEN + f"        client.send(HttpRequest.newBuilder(URI.create({java_string(java_encoded_url(sample.config['url']))}"
    raise ValueError(f"unknown setup {setup!r}")


def build_prompt(sample: Sample, setup: Setup, dataset: Dataset) -> Prompt:
    template = resources.files("wapii_httpclient_java").joinpath("prompt_template.md").read_text(encoding="utf-8")
    instructions = template.format(syntax=SYNTAX, api=dataset.display_names.get(sample.api, sample.api),
                                   extra_instructions="")
    starter = starter_code(sample, setup)
    return Prompt(text=instructions + starter, starter=starter, instructions=instructions, call_start=CALL_START)


def _builder_tail(config: dict[str, Any]) -> str:
    """The builder calls after the URI: headers, then the method with its body, then ``build()``."""
    headers = java_header_text(config)
    body = java_body_text(config, headers)
    method = str(config["method"]).upper()
    out = "".join(f"\n            .header({java_string(k)}, {java_string(v)})" for k, v in headers.items())
    if body is None:
        verb = BODYLESS.get(method) or f".method({java_string(method)}, HttpRequest.BodyPublishers.noBody())"
    elif method == "POST":
        verb = f".POST(HttpRequest.BodyPublishers.ofString({java_string(body)}))"
    elif method == "PUT":
        verb = f".PUT(HttpRequest.BodyPublishers.ofString({java_string(body)}))"
    else:
        verb = f".method({java_string(method)}, HttpRequest.BodyPublishers.ofString({java_string(body)}))"
    return out + f"\n            {verb}\n            .build(), HttpResponse.BodyHandlers.ofString());"


def render_program(config: dict[str, Any], setup: Setup, sample: Sample) -> str:
    """A full program (starter of ``setup`` + completion) that sends exactly ``config``."""
    starter = starter_code(sample, setup)
    query = java_query_string(config.get("params"))
    url = java_encoded_url(config["url"])
    if setup is Setup.argument:
        if config["url"] != sample.config["url"]:
            raise ValueError(f"the argument setup fixes the URL to {sample.config['url']}; cannot render {config['url']}")
        return starter + (f" + {java_string(query)}" if query else "") + "))" + _builder_tail(config) + CLOSE
    call = f"\n            .uri(URI.create({java_string(url + query)}))" + _builder_tail(config)
    if setup is Setup.full:
        return starter + call + CLOSE
    return starter + OPEN + "        client.send(HttpRequest.newBuilder()" + call + CLOSE
