"""Workflow tasks (docs/workflows.md) with both Java adapters, ``httpclient_java`` and ``okhttp_java``
(they share ``wapii_core.jvm.workflow``): the prompt, the extraction of a whole program, and the
oracle's programs run in the real sandbox against the real mock of WAPIIBench's Asana description
(and a responder of the test's own for JSON values of every type): each reads the identifiers it
sends from the answers, waits out a 429, and stops at any other failure."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from support import shared_path, skip_without_jdk
from wapii_core.api import Sample, Setup
from wapii_core.kits.wire import MockRequest, MockResponse
from wapii_core.kits.jvm import program_source

NAMES = ("httpclient_java", "okhttp_java")
API = "https://app.asana.com/api/1.0"
AUTH = {"Authorization": "Bearer <token>"}
SETUP = [{"url": f"{API}/workspaces/1201/projects", "method": "post", "headers": AUTH, "data": {"data": {"name": "Apollo"}}}]
TASK = "Add a task named 'Draft press release' to the project 'Apollo' of workspace 1201, then comment 'First draft due Friday' on it."
FAULT = {"faults": [{"status": 429, "operation": "POST /tasks", "times": 1, "retry_after": 1}]}


def make(name: str) -> Any:
    if name == "okhttp_java":
        from wapii_okhttp_java.adapter import OkHttpAdapter

        return OkHttpAdapter()
    from wapii_httpclient_java.adapter import HttpClientAdapter

    return HttpClientAdapter()


def workflow(project: str, name: str = "Draft press release", task: str = "{{1.data.gid}}") -> list[dict[str, Any]]:
    """The issue's Asana workflow, the setup's project given literally (as render_workflow gets it)."""
    return [{"url": f"{API}/projects", "method": "get", "headers": AUTH, "params": {"workspace": "1201"}},
            {"url": f"{API}/tasks", "method": "post", "headers": AUTH,
             "data": {"data": {"name": name, "projects": [project]}}},
            {"url": f"{API}/tasks/{task}/stories", "method": "post", "headers": AUTH,
             "data": {"data": {"text": "First draft due Friday"}}}]


SAMPLE = Sample(api="asana", index=0, task=TASK, config=workflow("1")[0])


class Dataset:
    display_names = {"asana": "Asana"}


@pytest.mark.parametrize("name", NAMES)
def test_the_prompt_asks_for_a_whole_program_and_leaks_no_call(name) -> None:
    adapter = make(name)
    prompt = adapter.prompt(SAMPLE, Setup.workflow, Dataset())
    assert prompt.text == prompt.instructions + prompt.starter and prompt.text.endswith(prompt.starter)
    assert prompt.starter.startswith(f"// {TASK}\n") and prompt.starter.endswith(adapter.program.imports + "import java.util.*;\n")
    assert "class Main" not in prompt.starter
    for leak in ("app.asana.com", "/projects", "/stories", "workspace=", "1201/"):
        assert leak not in prompt.text.replace(TASK, "")
    assert "Retry-After" in prompt.instructions and "Asana" in prompt.instructions and adapter.program.syntax in prompt.instructions
    assert adapter.capabilities.workflows and adapter.capabilities.answers


MODEL_PROGRAM = """
public class AsanaFlow {
    static final HttpClient CLIENT = HttpClient.newHttpClient();

    static String send(HttpRequest request) throws Exception {
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString()).body();
    }

    public static void main(String[] args) throws Exception {
        System.out.println(AsanaFlow.send(HttpRequest.newBuilder(URI.create("https://x.test/a")).build()));
    }
}
```

This program first looks up the project, then creates the task.
"""


def test_extract_program_keeps_the_whole_program_and_cuts_the_prose() -> None:
    adapter = make("httpclient_java")
    starter = adapter.prompt(SAMPLE, Setup.workflow, Dataset()).starter
    unit = adapter.extract_program(starter + MODEL_PROGRAM).call
    assert unit.startswith("package wapii_program; // Add a task") and "```" not in unit and "This program" not in unit
    assert "public class Main {" in unit and "Main.send(HttpRequest" in unit and "AsanaFlow" not in unit  # renamed: the runner runs Main
    assert "CLIENT.send(request" in unit and "main(String[] args)" in unit  # nothing cut after the first call
    source = program_source(unit, "p3")
    assert source.startswith("package p3; // Add a task")
    assert "public class Main { static { wapii.Launch.install(); }\n" in source  # before CLIENT is built, lines kept
    assert source.count("\n") == unit.count("\n")
    own_package = adapter.extract_program("package com.example;\nimport java.net.http.*;\n" + MODEL_PROGRAM).call
    assert own_package.startswith("package wapii_program; " + " " * len("package com.example;") + "\nimport java.net.http.*;")
    statements = adapter.extract_program(starter + 'var c = HttpClient.newHttpClient();\nc.send(r, h);\nc.send(s, h);\n').call
    assert statements.endswith("c.send(r, h);\nc.send(s, h);\n")  # no class: main's statements, uncut
    assert "throws Exception { wapii.Launch.install();\nvar c = HttpClient.newHttpClient();\nc.send(r, h);\nc.send(s, h);\n}" \
        in program_source(statements, "p0")


def test_extract_program_cuts_prose_after_the_last_class_without_a_fence() -> None:
    adapter = make("httpclient_java")
    program = MODEL_PROGRAM.split("```")[0]
    unit = adapter.extract_program(program + "\nThat's it: the program's main sends one request.\n").call
    assert unit.rstrip().endswith("}") and "That's it" not in unit
    assert adapter.extract_program(program + "\nclass Helper { }\n").call.rstrip().endswith("class Helper { }")
    cut_inside = adapter.extract_program(program.replace("System.out", 'String s = "open\nSystem.out')).error
    assert cut_inside == "no_request"  # a line ends inside a literal of the class itself: nothing is cut off
    assert adapter.extract_program(program[:program.rindex("}")]).error == "incomplete_request"


def test_extract_program_errors() -> None:
    adapter = make("okhttp_java")
    assert adapter.extract_program("import okhttp3.*;\npublic class Main { public static void main(String[] a) {} }").error == "no_request"
    assert adapter.extract_program("public class Main { void m() { client.newCall(r).execute(); ").error == "incomplete_request"
    assert adapter.extract_program('public class Main { void m() { client.newCall("cut').error == "incomplete_request"


def test_render_workflow_refuses_a_reference_it_cannot_read() -> None:
    adapter = make("httpclient_java")
    with pytest.raises(ValueError, match="call 1 refers to the answer of call 1"):
        adapter.render_workflow(workflow("{{1.data.gid}}"), SAMPLE)
    with pytest.raises(ValueError, match="setup"):
        adapter.render_workflow(workflow("{{s0.data.gid}}"), SAMPLE)


# -- in the sandbox ---------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=NAMES)
def adapter(request):
    if request.param == "okhttp_java":
        from wapii_okhttp_java.adapter import okhttp_jars

        skip_without_jdk(okhttp_jars)
    else:
        skip_without_jdk()
    instance = make(request.param)
    yield instance
    instance.close()


@pytest.fixture(scope="module")
def asana():
    from wapii_core.testing import SpecMock

    return SpecMock.for_spec(shared_path("wapiibench", "specs", "asana.yaml"))


def setup_project(responder) -> str:
    (gid,) = responder.state()["collections"]["projects"]
    return gid


def run(adapter, programs: list[str], responders: list[Any]) -> list[Any]:
    calls = []
    for program in programs:
        extraction = adapter.extract_program(program)
        assert extraction.error is None, extraction
        calls.append(extraction.call)
    return adapter.execute(calls, responders)


def created(state: dict[str, Any], collection: str) -> list[dict[str, Any]]:
    return list(state["collections"].get(collection, {}).values())


@pytest.mark.slow
def test_the_oracle_chains_the_answers_waits_out_a_429_and_fails_on_a_made_up_identifier(adapter, asana) -> None:
    plain, faulted, typed, made_up = (asana.responder(seed=1, setup=SETUP), asana.responder(seed=1, setup=SETUP, faults=FAULT),
                                      asana.responder(seed=1, setup=SETUP), asana.responder(seed=1, setup=SETUP))
    project = setup_project(plain)
    programs = [adapter.render_workflow(workflow(project), SAMPLE),
                adapter.render_workflow(workflow(project), SAMPLE),
                adapter.render_workflow(workflow("{{0.data.0.gid}}", name="Follow up on {{0.data.0.name}}"), SAMPLE),
                adapter.render_workflow(workflow(project, task="1200000009999"), SAMPLE)]
    done = run(adapter, programs, [plain, faulted, typed, made_up])

    assert done[0].error is None, done[0]
    assert [(e.method, e.status) for e in done[0].exchanges] == [("GET", 200), ("POST", 201), ("POST", 201)]
    task_gid = json.loads(done[0].exchanges[1].response.body)["data"]["gid"]
    assert urlsplit(done[0].exchanges[2].url).path == f"/api/1.0/tasks/{task_gid}/stories"  # spliced into the URL
    (task,) = created(plain.state(), "tasks")
    assert task["name"] == "Draft press release"
    assert [story["text"] for story in created(plain.state(), "stories")] == ["First draft due Friday"]

    assert done[1].error is None, done[1]
    assert [(e.method, e.status) for e in done[1].exchanges] == [("GET", 200), ("POST", 429), ("POST", 201), ("POST", 201)]
    assert faulted.state() == plain.state()  # the faulted request changed nothing, the one sent again did

    assert done[2].error is None, done[2]
    sent = json.loads(done[2].exchanges[1].request.body)
    assert sent == {"data": {"name": "Follow up on Apollo", "projects": [project]}}  # typed: a JSON string in a list
    assert [t["name"] for t in created(typed.state(), "tasks")] == ["Follow up on Apollo"]

    assert done[3].error == "runtime_error" and "404" in (done[3].detail or "")
    assert [(e.method, e.status) for e in done[3].exchanges] == [("GET", 200), ("POST", 201), ("POST", 404)]
    assert created(made_up.state(), "stories") == []


class Answers:
    """Answers the first request with JSON values of every type, and every later one with ``{}``."""

    FIRST = {"n": 5, "f": 1.5, "b": True, "none": None, "o": {"k": ["x", None, False], "e": {}},
             "s": 'a "q" \\ é/ü\n\t', "id": "a b/c?d", "list": [{"gid": "g-1"}, {"gid": "g-2"}]}

    def __init__(self) -> None:
        self.requests: list[MockRequest] = []

    def answer(self, request: MockRequest) -> MockResponse:
        self.requests.append(request)
        body = self.FIRST if len(self.requests) == 1 else {}
        return MockResponse(200, (("Content-Type", "application/json"),), json.dumps(body, indent=1).encode())


@pytest.mark.slow
def test_references_of_every_json_type_are_sent_as_the_answer_gave_them(adapter) -> None:
    base = "https://api.example.test/v1"
    calls = [{"url": f"{base}/start", "method": "get", "headers": {}},
             {"url": f"{base}/items/{{{{0.id}}}}/x", "method": "post", "headers": {"X-Count": "{{0.n}}", "X-Name": "id={{0.id}}"},
              "params": {"q": "{{0.s}}", "id": "{{0.list.1.gid}}"},
              "data": {"n": "{{0.n}}", "f": "{{0.f}}", "b": "{{0.b}}", "none": "{{0.none}}", "o": "{{0.o}}",
                       "s": "{{0.s}}", "mix": "{{0.id}} has {{0.n}} and {{0.o}}", "deep": [{"gid": "{{0.list.0.gid}}"}]}},
             {"url": f"{base}/form", "method": "put", "headers": {"Content-Type": "application/x-www-form-urlencoded"},
              "data": {"s": "{{0.s}}", "b": "{{0.b}}"}}]
    answers = Answers()
    (done,) = run(adapter, [adapter.render_workflow(calls, SAMPLE)], [answers])
    assert done.error is None, done
    first = Answers.FIRST
    _, second, third = answers.requests
    url = urlsplit(second.url)
    assert url.path == "/v1/items/a%20b/c%3Fd/x"
    assert parse_qs(url.query) == {"q": [first["s"]], "id": ["g-2"]}
    headers = dict(second.headers)
    assert headers["X-Count"] == "5" and headers["X-Name"] == "id=a b/c?d"
    assert json.loads(second.body) == {
        "n": 5, "f": 1.5, "b": True, "none": None, "o": first["o"], "s": first["s"],
        "mix": f"a b/c?d has 5 and {json.dumps(first['o'])}", "deep": [{"gid": "g-1"}]}
    assert parse_qs(third.body.decode()) == {"s": [first["s"]], "b": ["true"]}


SHADOW = """// a type named `wapii` in the program's own package turns the launcher's install into a no-op
import java.net.URI;
import java.net.http.*;
import okhttp3.*;

class wapii {
    static final class Launch {
        static void install() {
        }
    }
}

public class Main {
    public static void main(String[] args) throws Exception {
        SEND
    }
}
"""
SHADOW_SENDS = {
    "httpclient_java": "HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(\"https://app.asana.com/api/1.0/projects\"))"
                       ".build(), HttpResponse.BodyHandlers.ofString());",
    "okhttp_java": "new OkHttpClient().newCall(new Request.Builder().url(\"https://app.asana.com/api/1.0/projects\").build()).execute();",
}


class Counting:
    def __init__(self) -> None:
        self.answered = 0

    def answer(self, request: MockRequest) -> MockResponse:
        self.answered += 1
        return MockResponse(200, (), b"{}")


@pytest.mark.slow
def test_a_program_that_skips_the_install_speaks_tls_that_the_recorder_cannot_read(adapter) -> None:
    """A whole program can shadow ``wapii`` (as any program can remove the provider): its request then
    goes out in real TLS, which the recorder cannot read: nothing is answered or recorded."""
    responder = Counting()
    program = SHADOW.replace("SEND", SHADOW_SENDS[adapter.name])
    if adapter.name == "httpclient_java":
        program = program.replace("import okhttp3.*;\n", "")
    (done,) = run(adapter, [program], [responder])
    assert done.error == "runtime_error" and done.request is None and "compile" not in (done.detail or ""), done
    assert responder.answered == 0 and not done.exchanges


HAND_WRITTEN = """
public class AsanaTasks {
    static final String API = "https://app.asana.com/api/1.0";
    CLIENT

    // the string value of the first `key` at `depth` of a JSON text
    static String field(String text, String key, int depth) {
        int level = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{' || c == '[') level++;
            else if (c == '}' || c == ']') level--;
            else if (c == '"') {
                Matcher m = Pattern.compile("\\"" + key + "\\"\\\\s*:\\\\s*\\"([^\\"]*)\\"").matcher(text).region(i, text.length());
                if (level == depth && m.lookingAt()) return m.group(1);
                for (i++; text.charAt(i) != '"'; i++) if (text.charAt(i) == '\\\\') i++;
            }
        }
        throw new IllegalStateException("no " + key + " in " + text);
    }

    CALL

    public static void main(String[] args) throws Exception {
        String projects = call("GET", "/projects?workspace=1201", null);
        String project = field(projects, "gid", 3);
        String task = call("POST", "/tasks", "{\\"data\\": {\\"name\\": \\"Draft press release\\", \\"projects\\": [\\"" + project + "\\"]}}");
        call("POST", "/tasks/" + field(task, "gid", 2) + "/stories", "{\\"data\\": {\\"text\\": \\"First draft due Friday\\"}}");
    }
}
```

The program looks the project up, creates the task in it and comments on the task.
"""
LIBRARY_PARTS = {
    "httpclient_java": ("static final HttpClient CLIENT = HttpClient.newHttpClient();", """static String call(String method, String path, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(API + path)).header("Authorization", "Bearer <token>");
        if (json != null) request.header("Content-Type", "application/json");
        request.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() >= 400) throw new IllegalStateException(response.statusCode() + " " + response.body());
        return response.body();
    }"""),
    "okhttp_java": ("static final OkHttpClient CLIENT = new OkHttpClient();", """static String call(String method, String path, String json) throws Exception {
        RequestBody body = json == null ? null : RequestBody.create(MediaType.parse("application/json"), json);
        Request request = new Request.Builder().url(API + path).header("Authorization", "Bearer <token>").method(method, body).build();
        try (Response response = CLIENT.newCall(request).execute()) {
            String text = response.body().string();
            if (response.code() >= 400) throw new IllegalStateException(response.code() + " " + text);
            return text;
        }
    }"""),
}


@pytest.mark.slow
def test_a_hand_written_program_with_a_static_client_runs_whole(adapter, asana) -> None:
    """A model-like program (its own class name, a client built in a static field, helper methods,
    a closing fence and prose) is extracted whole and runs to the same end state as the oracle's."""
    client, call = LIBRARY_PARTS[adapter.name]
    starter = adapter.prompt(SAMPLE, Setup.workflow, Dataset()).starter
    program = (starter + "import java.util.regex.*;\n" + HAND_WRITTEN).replace("CLIENT\n", client + "\n", 1).replace("CALL\n", call + "\n", 1)
    hand, oracle = asana.responder(seed=1, setup=SETUP), asana.responder(seed=1, setup=SETUP)
    done = run(adapter, [program, adapter.render_workflow(workflow(setup_project(oracle)), SAMPLE)], [hand, oracle])
    assert done[0].error is None and done[1].error is None, done
    assert [(e.method, e.status) for e in done[0].exchanges] == [("GET", 200), ("POST", 201), ("POST", 201)]
    assert hand.state() == oracle.state()
