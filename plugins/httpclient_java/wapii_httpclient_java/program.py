"""The prompt's starter code and the oracle's program for ``java.net.http.HttpClient``.

Starter per setup: ``import`` the task comment and the imports; ``full`` also the class, ``main``,
the client and the call's start ``client.send(HttpRequest.newBuilder()``; ``argument`` instead
opens the builder on the URL: ``client.send(HttpRequest.newBuilder(URI.create("<url>"`` (the query,
appended with ``+``, the method, headers and body follow).
"""

from __future__ import annotations

from typing import Any

from wapii_core.kits.jvm import JavaProgram, java_body_text, java_header_text, java_string

SYNTAX = "client.send(HttpRequest.newBuilder()...build(), HttpResponse.BodyHandlers.ofString())"
CALL_START = "client.send(HttpRequest.newBuilder("
IMPORTS = ("import java.net.URI;\nimport java.net.http.HttpClient;\nimport java.net.http.HttpRequest;\n"
           "import java.net.http.HttpResponse;\n")
OPEN = ("\npublic class Main {\n    public static void main(String[] args) throws Exception {\n"
        "        HttpClient client = HttpClient.newHttpClient();\n")
BODYLESS = {"GET": ".GET()", "DELETE": ".DELETE()"}


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


PROGRAM = JavaProgram(
    package="wapii_httpclient_java", syntax=SYNTAX, call_start=CALL_START, imports=IMPORTS, open=OPEN,
    call="client.send(HttpRequest.newBuilder()", argument="client.send(HttpRequest.newBuilder(URI.create({url}",
    argument_close="))", url_call="\n            .uri(URI.create({url}))", builder_tail=_builder_tail,
    response_type="HttpResponse<String>", status="response.statusCode()",
    retry_after='response.headers().firstValue("Retry-After").orElse(null)', answer_text="response.body()")
