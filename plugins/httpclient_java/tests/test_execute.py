"""What httpclient_java captures: the bytes HttpClient wrote, whatever client the program builds,
and a verdict of its own for every program of a batch (a real JDK, the real sandbox)."""

from __future__ import annotations

import pytest

HEAD = ("import java.net.URI;\nimport java.net.http.*;\nimport java.util.concurrent.Executors;\n"
        "HttpClient client = HttpClient.newHttpClient();\n")
URL = "https://app.asana.com/api/1.0/tasks"


def _send(builder: str, client: str = "client", method: str = "send") -> str:
    return f"{client}.{method}({builder}.build(), HttpResponse.BodyHandlers.ofString());\n"


PROGRAMS = {
    "plain": HEAD + _send(f'HttpRequest.newBuilder(URI.create("{URL}?limit=10&opt_fields=name%2Cnotes"))'
                          '.header("Authorization", "Bearer <token>")'),
    "own_client": HEAD + "HttpClient own = HttpClient.newBuilder().executor(Executors.newSingleThreadExecutor())"
                         ".version(HttpClient.Version.HTTP_2).followRedirects(HttpClient.Redirect.ALWAYS).build();\n"
                  + _send(f'HttpRequest.newBuilder(URI.create("{URL}")).POST(HttpRequest.BodyPublishers.ofString('
                          '"{\\"data\\": {\\"name\\": \\"x\\"}}")).header("Content-Type", "application/json")', "own"),
    "async": HEAD + f'client.sendAsync(HttpRequest.newBuilder(URI.create("{URL}/1")).DELETE().build(), '
                    "HttpResponse.BodyHandlers.ofString()).join();\n",
    "chunked": HEAD + _send(f'HttpRequest.newBuilder(URI.create("{URL}")).method("PUT", HttpRequest.BodyPublishers'
                            '.ofInputStream(() -> new java.io.ByteArrayInputStream("a=1&b=2".getBytes())))'
                            '.header("Content-Type", "application/x-www-form-urlencoded")'),
    "plain_http": HEAD + _send('HttpRequest.newBuilder(URI.create("http://example.com/x?q=a+b"))'),
    "own_tls": HEAD + 'javax.net.ssl.SSLContext tls = javax.net.ssl.SSLContext.getInstance("TLSv1.3");\n'
                      "tls.init(null, null, new java.security.SecureRandom());\n"
                      "HttpClient own = HttpClient.newBuilder().sslContext(tls).sslParameters(new javax.net.ssl.SSLParameters("
                      'new String[] {"TLS_AES_256_GCM_SHA384"}, new String[] {"TLSv1.3"})).build();\n'
                      + _send(f'HttpRequest.newBuilder(URI.create("{URL}/2")).PUT(HttpRequest.BodyPublishers.ofString("x"))', "own"),
    "url_connection": HEAD + f'var connection = (javax.net.ssl.HttpsURLConnection) new java.net.URL("{URL}?archived=true")'
                             ".openConnection();\nconnection.setRequestProperty(\"Authorization\", \"Bearer <token>\");\n"
                             "connection.getResponseCode();\n",
    "real_tls": HEAD + 'javax.net.ssl.SSLContext tls = javax.net.ssl.SSLContext.getInstance("TLS", "SunJSSE");\n'
                       "tls.init(null, null, null);\n"
                       + _send(f'HttpRequest.newBuilder(URI.create("{URL}"))', "HttpClient.newBuilder().sslContext(tls).build()"),
    "compile_error": HEAD + "int x = ;\n" + _send(f'HttpRequest.newBuilder(URI.create("{URL}"))'),
    "throws": HEAD + 'if (true) throw new IllegalStateException("no token");\n'
              + _send(f'HttpRequest.newBuilder(URI.create("{URL}"))'),
    "nothing": HEAD + 'System.out.println("no request");\nif (false) ' + _send(f'HttpRequest.newBuilder(URI.create("{URL}"))'),
}


@pytest.fixture(scope="module")
def captured(adapter):
    captures = adapter.execute(list(PROGRAMS.values()))
    return dict(zip(PROGRAMS, captures))


@pytest.mark.slow
def test_what_httpclient_sent_is_judged(adapter, captured) -> None:
    plain = adapter.normalise(captured["plain"].request)
    assert plain["url"] == URL and plain["method"] == "get"
    assert plain["headers"] == {"Authorization": "Bearer <token>"}  # Host, User-Agent, Content-Length: HttpClient's
    assert plain["sent_params"] == {"limit": "10", "opt_fields": "name,notes"}
    own = adapter.normalise(captured["own_client"].request)
    assert own["method"] == "post" and own["data"] == {"data": {"name": "x"}}
    assert adapter.normalise(captured["async"].request)["method"] == "delete"
    chunked = adapter.normalise(captured["chunked"].request)
    assert chunked["method"] == "put" and chunked["data"] == {"a": "1", "b": "2"}
    http = adapter.normalise(captured["plain_http"].request)
    assert http["url"] == "http://example.com/x" and http["sent_params"] == {"q": "a b"}


@pytest.mark.slow
def test_tls_the_program_sets_up_itself_still_carries_what_the_library_wrote(adapter, captured) -> None:
    """A client with its own SSLContext and parameters, and the JDK's HttpsURLConnection, go through
    the pass-through provider too; a program that insists on the JDK's own TLS provider does a real
    handshake, which the recorder refuses: no request, never a verdict made from something else."""
    own = adapter.normalise(captured["own_tls"].request)
    assert own["url"] == f"{URL}/2" and own["method"] == "put"
    legacy = adapter.normalise(captured["url_connection"].request)
    assert legacy["url"] == URL and legacy["sent_params"] == {"archived": "true"}
    assert legacy["headers"]["Authorization"] == "Bearer <token>"
    real = captured["real_tls"]
    assert real.request is None and real.error == "runtime_error" and "TLS handshake" in real.detail


@pytest.mark.slow
def test_each_program_gets_its_own_verdict(captured) -> None:
    assert captured["compile_error"].error == "runtime_error"
    assert captured["compile_error"].detail.startswith("compile_error: line ")
    assert captured["throws"].error == "runtime_error" and "IllegalStateException: no token" in captured["throws"].detail
    assert captured["nothing"].error == "no_request"
    assert all(captured[name].request is not None for name in ("plain", "own_client", "async", "chunked", "plain_http"))


@pytest.mark.slow
def test_isolation_names_the_java_layers(adapter) -> None:
    names = [layer.name for layer in adapter.isolation().layers]
    assert "JVM per program" in names and "landlock (programs)" in names


@pytest.mark.slow
def test_programs_run_on_the_compiling_jdk_too(monkeypatch) -> None:
    """WAPII_JAVA_RUNTIME=jdk: programs run on the JDK's own java (before 25: an AppCDS archive and
    the client compiler instead of the ahead-of-time cache), with the same pass-through TLS."""
    from wapii_core.kits.jvm import RUNTIME_VARIABLE, find_jdk
    from wapii_httpclient_java.adapter import HttpClientAdapter

    monkeypatch.setenv(RUNTIME_VARIABLE, "jdk")
    adapter = HttpClientAdapter(workers=1)
    try:
        runner = adapter._ensure()
        assert runner.runtime == find_jdk()
        plain, own_tls = adapter.execute([PROGRAMS["plain"], PROGRAMS["own_tls"]])
        assert adapter.normalise(plain.request)["sent_params"] == {"limit": "10", "opt_fields": "name,notes"}
        assert adapter.normalise(own_tls.request)["method"] == "put"
        assert adapter.normalise(plain.request)["url"] == URL
    finally:
        adapter.close()
