"""The ``httpclient_java`` adapter: Java programs that call a web API through ``java.net.http.HttpClient``."""

from __future__ import annotations

from importlib import resources
from typing import Callable

from wapii_core.api import AdapterCapabilities
from wapii_core.kits.jvm import JavaAdapterBase, JavaLibrary, find_runtime

from .program import PROGRAM


def _defaults() -> dict[str, str]:
    return {"User-Agent": f"Java-http-client/{find_runtime().version}"}


class HttpClientAdapter(JavaAdapterBase):
    """Prompt, extraction, sandboxed execution (one JVM per program), normalisation and rendering for
    ``java.net.http.HttpClient``. Judged by default in ``wire`` mode: a query and a form are text.
    No constrained decoding (no Java grammar): ``--setting constrained`` is refused."""

    name = "httpclient_java"
    title = "java.net.http.HttpClient"
    program = PROGRAM
    methods = ("send", "sendAsync")
    capabilities = AdapterCapabilities(language="java", library="java.net.http.HttpClient", single_call=False, constrained=False,
                                       modes=("wire",), wire_capture=True, answers=True, workflows=True)

    def java_library(self) -> JavaLibrary:
        warmup = resources.files("wapii_httpclient_java").joinpath("Warmup.java").read_text(encoding="utf-8")
        return JavaLibrary(self.name, (), warmup)

    def own_headers(self) -> Callable[[], dict[str, str]]:
        return _defaults
