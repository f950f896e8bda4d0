"""The prompt's starter code and the oracle's program for OkHttp 3.

Starter per setup: ``import`` the task comment and the imports; ``full`` also the class, ``main``,
the client and the call's start ``client.newCall(new Request.Builder()``; ``argument`` opens the
builder on the URL: ``client.newCall(new Request.Builder().url("<url>"`` (the query, appended
with ``+``, then headers, method and body follow). The oracle sends a body with no media type of its
own (``RequestBody.create(null, bytes)``), so the ``Content-Type`` is the header it writes, exactly.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from wapii_core.api import (Dataset, Prompt, Sample, Setup, java_body_text, java_encoded_url, java_header_text,
                            java_query_string, java_string)

SYNTAX = "client.newCall(new Request.Builder().url(...)...build()).execute()"
CALL_START = "client.newCall(new Request.Builder()"
IMPORTS = ("import okhttp3.FormBody;\nimport okhttp3.MediaType;\nimport okhttp3.OkHttpClient;\nimport okhttp3.Request;\n"
           "import okhttp3.RequestBody;\nimport okhttp3.Response;\n")
OPEN = ("\npublic class Main {\n    public static void main(String[] args) throws Exception {\n"
        "        OkHttpClient client = new OkHttpClient();\n")
CLOSE = "\n    }\n}\n"
NEEDS_BODY = ("POST", "PUT", "PATCH")


def starter_code(sample: Sample, setup: Setup) -> str:
    head = "".join(f"// {line}\n" for line in " ".join(sample.task.split()).splitlines() or [""]) + IMPORTS
    if setup is Setup.imports:
        return head
    if setup is Setup.full:
        return head + OPEN + "        client.newCall(new Request.Builder()"
    if setup is Setup.argument:
        return head + OPEN + f"        client.newCall(new Request.Builder().url({java_string(java_encoded_url(sample.config['url']))}"
    raise ValueError(f"unknown setup {setup!r}")


def build_prompt(sample: Sample, setup: Setup, dataset: Dataset) -> Prompt:
    template = resources.files("wapii_okhttp_java").joinpath("prompt_template.md").read_text(encoding="utf-8")
    instructions = template.format(syntax=SYNTAX, api=dataset.display_names.get(sample.api, sample.api),
                                   extra_instructions="")
    starter = starter_code(sample, setup)
    return Prompt(text=instructions + starter, starter=starter, instructions=instructions, call_start=CALL_START)


def _builder_tail(config: dict[str, Any]) -> str:
    headers = java_header_text(config)
    body = java_body_text(config, headers)
    method = str(config["method"]).upper()
    out = "".join(f"\n                .header({java_string(k)}, {java_string(v)})" for k, v in headers.items())
    if body is not None and method in ("GET", "HEAD"):
        raise ValueError(f"OkHttp sends no body with {method}; cannot render {config['method']} {config['url']} with data")
    if body is not None:
        payload = f"RequestBody.create(null, {java_string(body)}.getBytes(java.nio.charset.StandardCharsets.UTF_8))"
    elif method in NEEDS_BODY:
        payload = "RequestBody.create(null, new byte[0])"
    else:
        payload = "null"
    return out + f"\n                .method({java_string(method)}, {payload})\n                .build()).execute();"


def render_program(config: dict[str, Any], setup: Setup, sample: Sample) -> str:
    """A full program (starter of ``setup`` + completion) that sends exactly ``config``."""
    starter = starter_code(sample, setup)
    query = java_query_string(config.get("params"))
    url = java_encoded_url(config["url"])
    if setup is Setup.argument:
        if config["url"] != sample.config["url"]:
            raise ValueError(f"the argument setup fixes the URL to {sample.config['url']}; cannot render {config['url']}")
        return starter + (f" + {java_string(query)}" if query else "") + ")" + _builder_tail(config) + CLOSE
    call = f"\n                .url({java_string(url + query)})" + _builder_tail(config)
    if setup is Setup.full:
        return starter + call + CLOSE
    return starter + OPEN + "        client.newCall(new Request.Builder()" + call + CLOSE
