"""Prompts, extraction and rendering of httpclient_java (no JVM)."""

from __future__ import annotations

from wapii_core.api import Sample, Setup
from wapii_core.kits.jvm import extract_java_call, java_string, program_source, tokens
from wapii_core.testing import CALL_SETUPS
from wapii_httpclient_java.program import PROGRAM

METHODS = ("send", "sendAsync")
SAMPLE = Sample(api="demo", index=0, task="List the books\nof the shop", config={
    "url": "https://api.example.com/shops/a b/books", "method": "get", "headers": {"Authorization": "Bearer <token>"},
    "params": {"limit": 10, "available": True}})


def test_starters_follow_the_paper() -> None:
    imports = PROGRAM.starter(SAMPLE, Setup.imports)
    assert imports.startswith("// List the books of the shop\nimport java.net.URI;\n")
    assert "class Main" not in imports
    assert PROGRAM.starter(SAMPLE, Setup.full).endswith("client.send(HttpRequest.newBuilder()")
    assert PROGRAM.starter(SAMPLE, Setup.argument).endswith(
        'client.send(HttpRequest.newBuilder(URI.create("https://api.example.com/shops/a%20b/books"')


def test_every_setup_renders_a_program_that_starts_with_its_starter_and_is_extracted_whole() -> None:
    for setup in CALL_SETUPS:
        program = PROGRAM.render(SAMPLE.config, setup, SAMPLE)
        assert program.startswith(PROGRAM.starter(SAMPLE, setup))
        call = extract_java_call(program, METHODS).call
        assert call is not None and "?limit=10&available=true" in call and call.rstrip().endswith(";")
        assert call.startswith("import java.net.URI;")


def test_extraction_keeps_the_statements_before_the_call_and_cuts_after_it() -> None:
    code = ('import java.net.http.*;\nclass Main {\n  static int f() { return 1; }\n  public static void main(String[] a) {\n'
            '    var c = HttpClient.newHttpClient(); // a comment with client.send(\n'
            '    try { c.send(x, y); } catch (Exception e) { } finally { }\n    c.send(z, w);\n  }\n}\n```\nprose')
    call = extract_java_call(code, METHODS).call
    assert call == ("import java.net.http.*;\n    var c = HttpClient.newHttpClient(); // a comment with client.send(\n"
                    "    try { c.send(x, y); } catch (Exception e) { } finally { }\n")


def test_a_call_inside_a_lambda_or_a_branch_ends_with_its_whole_statement() -> None:
    head = "class Main { public static void main(String[] a) throws Exception {\n"
    lambda_call = 'new Thread(() -> { try { c.send(x, y); } catch (Exception e) { } }).start();'
    assert extract_java_call(head + lambda_call + "\nreturn; } }", METHODS).call == lambda_call + "\n"
    branch = "if (a.length == 0) { c.send(x, y); } else { int[] n = new int[] {1}; }"
    assert extract_java_call(head + branch + " c.send(z, w); } }", METHODS).call == branch + "\n"
    assigned = "Runnable r = () -> { c.send(x, y); };"
    assert extract_java_call(head + assigned + " r.run(); } }", METHODS).call == assigned + "\n"


def test_extraction_errors() -> None:
    assert extract_java_call("import java.net.http.*;\nclass Main {}", METHODS).error == "no_request"
    assert extract_java_call("class Main { void m() { client.send(HttpRequest.newBuilder()", METHODS).error == \
        "incomplete_request"
    assert extract_java_call('class Main { void m() { client.send("unterminated', METHODS).error == "incomplete_request"


def test_program_source_wraps_the_call_in_its_own_package() -> None:
    source = program_source("import java.util.List;\nint x = 1;\nclient.send(a, b);\n", "p7")
    assert source.startswith("package p7;\nimport java.util.List;\n\npublic class Main {")
    assert "int x = 1;\nclient.send(a, b);\n}\n}" in source
    assert "main(String[] args) throws Exception { wapii.Launch.install();\nint x = 1;" in source  # the lines kept


def test_java_strings_survive_unicode_preprocessing() -> None:
    literal = java_string('a"\\\n\u00e9\U0001F600\u2028')
    assert literal == '"a\\"\\\\\\n\\u00e9\\ud83d\\ude00\\u2028"'
    assert [t.kind for t in tokens(literal)] == ["string"]
