"""The prompt's starter code and the oracle's program for OkHttp 3.

Starter per setup: ``import`` the task comment and the imports; ``full`` also the class, ``main``,
the client and the call's start ``client.newCall(new Request.Builder()``; ``argument`` opens the
builder on the URL: ``client.newCall(new Request.Builder().url("<url>"`` (the query, appended
with ``+``, then headers, method and body follow). The oracle sends a body with no media type of its
own (``RequestBody.create(null, bytes)``), so the ``Content-Type`` is the header it writes, exactly.
"""

from __future__ import annotations

from typing import Any

from wapii_core.kits.jvm import JavaProgram, java_body_text, java_header_text, java_string

SYNTAX = "client.newCall(new Request.Builder().url(...)...build()).execute()"
CALL_START = "client.newCall(new Request.Builder()"
IMPORTS = ("import okhttp3.FormBody;\nimport okhttp3.MediaType;\nimport okhttp3.OkHttpClient;\nimport okhttp3.Request;\n"
           "import okhttp3.RequestBody;\nimport okhttp3.Response;\n")
OPEN = ("\npublic class Main {\n    public static void main(String[] args) throws Exception {\n"
        "        OkHttpClient client = new OkHttpClient();\n")
NEEDS_BODY = ("POST", "PUT", "PATCH")


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


PROGRAM = JavaProgram(
    package="wapii_okhttp_java", syntax=SYNTAX, call_start=CALL_START, imports=IMPORTS, open=OPEN,
    call="client.newCall(new Request.Builder()", argument="client.newCall(new Request.Builder().url({url}",
    argument_close=")", url_call="\n                .url({url})", builder_tail=_builder_tail,
    response_type="Response", status="response.code()", retry_after='response.header("Retry-After")',
    answer_text="response.body().string()")
