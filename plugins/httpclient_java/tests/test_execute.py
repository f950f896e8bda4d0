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
