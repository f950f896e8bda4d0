"""What okhttp_java captures: the bytes OkHttp wrote, whatever the program puts around its client
(an interceptor rewriting the request, its own Dns or SocketFactory), a verdict per program, and
starters and extraction in OkHttp's shape (a real JDK, OkHttp and the real sandbox)."""

from __future__ import annotations

import pytest

from wapii_core.api import Sample, Setup
from wapii_core.kits.jvm import extract_java_call
from wapii_core.testing import CALL_SETUPS
from wapii_okhttp_java.program import PROGRAM

HEAD = ("import okhttp3.*;\nimport java.util.*;\nimport java.net.*;\n"
        "OkHttpClient client = new OkHttpClient();\n")
URL = "https://slack.com/api/chat.postMessage"
PROGRAMS = {
    "interceptor": HEAD + "OkHttpClient own = client.newBuilder().addInterceptor(chain -> chain.proceed("
                          "chain.request().newBuilder().header(\"X-Added\", \"by-interceptor\").build())).build();\n"
                          f'own.newCall(new Request.Builder().url("{URL}?channel=C1").post(new FormBody.Builder()'
                          '.add("text", "hi there").build()).build()).execute();\n',
    "own_dns": HEAD + "OkHttpClient own = client.newBuilder().proxy(Proxy.NO_PROXY).dns(host -> "
                      "Arrays.asList(InetAddress.getByName(\"127.0.0.1\"))).build();\n"
                      f'own.newCall(new Request.Builder().url("{URL}").build()).execute();\n',
    "own_tls": HEAD + 'javax.net.ssl.X509TrustManager trust = (javax.net.ssl.X509TrustManager) javax.net.ssl.TrustManagerFactory'
                      ".getInstance(\"PKIX\").getTrustManagers()[0];\n"
                      'javax.net.ssl.SSLContext tls = javax.net.ssl.SSLContext.getInstance("TLS");\n'
                      "tls.init(null, new javax.net.ssl.TrustManager[] {trust}, null);\n"
                      "OkHttpClient own = client.newBuilder().sslSocketFactory(tls.getSocketFactory(), trust)"
                      ".hostnameVerifier((host, session) -> host.equals(session.getPeerHost()))"
                      ".connectionSpecs(Arrays.asList(ConnectionSpec.RESTRICTED_TLS)).build();\n"
                      f'own.newCall(new Request.Builder().url("{URL}?channel=C2").delete().build()).execute();\n',
    "json": HEAD + f'client.newCall(new Request.Builder().url("{URL}").post(RequestBody.create('
                   'MediaType.parse("application/json"), "{\\"channel\\": \\"C1\\"}")).build()).execute();\n',
}
SAMPLE = Sample(api="demo", index=0, task="Post a message", config={"url": URL, "method": "post", "headers": {},
                                                                      "data": {"channel": "C1"}})


def test_starters_and_extraction() -> None:
    assert PROGRAM.starter(SAMPLE, Setup.full).endswith("client.newCall(new Request.Builder()")
    assert PROGRAM.starter(SAMPLE, Setup.argument).endswith(f'client.newCall(new Request.Builder().url("{URL}"')
    for setup in CALL_SETUPS:
        program = PROGRAM.render(SAMPLE.config, setup, SAMPLE)
        call = extract_java_call(program, ("newCall",)).call
        assert call is not None and call.rstrip().endswith(".execute();")


@pytest.mark.slow
def test_what_okhttp_sent_is_judged(adapter) -> None:
    captured = dict(zip(PROGRAMS, adapter.execute(list(PROGRAMS.values()))))
    form = adapter.normalise(captured["interceptor"].request)
    assert form["headers"] == {"X-Added": "by-interceptor", "Content-Type": "application/x-www-form-urlencoded"}
    assert form["data"] == {"text": "hi there"} and form["sent_params"] == {"channel": "C1"}
    assert captured["own_dns"].request is None and captured["own_dns"].error == "runtime_error"  # nothing reached
    own_tls = adapter.normalise(captured["own_tls"].request)  # its own SSLSocketFactory, verifier and TLS spec
    assert own_tls["method"] == "delete" and own_tls["sent_params"] == {"channel": "C2"}
    json_body = adapter.normalise(captured["json"].request)
    assert json_body["data"] == {"channel": "C1"}
    assert json_body["headers"] == {"Content-Type": "application/json; charset=utf-8"}  # OkHttp adds the charset
