"""Constrained settings through a server's guided decoding: the grammar each request carries, the
server enforcing it (the test server does what vLLM's guidance backend does), refusals."""

from __future__ import annotations

import json

import pytest

from fake_openai import OpenAIServer, Reply
from support import run_cli
from wapii_core.api import GenerationRequest, Setup
from wapii_core.testing import accepts

HALLUCINATED = "get('https://library.example.test/v9/shelves/everything');\n"


@pytest.fixture(scope="module")
def demo():
    from wapii_axios_js.adapter import AxiosAdapter
    from wapii_core.testing import load_demo

    adapter = AxiosAdapter()
    yield load_demo(), adapter
    adapter.close()


def expected_answers(dataset, adapter, setup: Setup) -> dict[str, tuple[str, str, str]]:
    """Prompt text → (sample id, starter, the oracle's completion) for every demo sample."""
    out = {}
    for sample in dataset.samples:
        prompt = adapter.prompt(sample, setup, dataset)
        program = adapter.render(sample.config, setup, sample)
        out[prompt.text] = (sample.id, prompt.starter, program[len(prompt.starter):])
    return out


def run_args(server, model, out, setup, *options):
    args = ["run", "--dataset", "demo", "--backend", "openai", "--model", model, "--out", str(out), "--quiet",
            "--setup", setup, "--setting", "constrained", "-O", f"base_url={server.base_url}"]
    if not any(option.startswith("chat=") for option in options):
        options = ("chat=false", *options)
    for option in options:
        args += ["-O", option]
    return args


@pytest.mark.slow
@pytest.mark.parametrize("setup, style", [("full", "vllm"), ("argument", "vllm-legacy")])
def test_every_request_carries_its_grammar_and_the_enforced_grammar_leaves_no_illegal_call(
        tmp_path, model_name, demo, setup, style):
    """Even-numbered samples answer with the expected call, the others with a hallucinated URL: the
    server cuts those where the grammar stops allowing them, so they end ``incomplete_request``."""
    from wapii_core.kits.grammar import SpecIndex

    dataset, adapter = demo
    answers = expected_answers(dataset, adapter, Setup(setup))
    honest = {sample_id for sample_id, _, _ in answers.values()
              if int(sample_id.rsplit("/", 1)[-1]) % 2 == 0}

    def respond(call):
        sample_id, starter, completion = answers[call.body["prompt"]]
        if sample_id in honest:
            return Reply(completion + "\n```\n")
        return Reply(HALLUCINATED if setup == "full" else " { params: { shelf: 'everything' } });\n")

    with OpenAIServer(respond, models=[model_name]) as server:
        done = run_cli(*run_args(server, model_name, tmp_path / "run", setup, f"guided={style}"))
        assert done.returncode == 0, done.stderr
        assert server.answered == len(answers)
        spec = SpecIndex.load(dataset.specs["larchwood"])
        for call in server.calls:
            sample_id, starter, _ = answers[call.body["prompt"]]
            sent = (call.body["structured_outputs"]["grammar"] if style == "vllm" else call.body["guided_grammar"])
            assert (style == "vllm") != ("guided_decoding_backend" in call.body)
            wanted = adapter.constraint(spec, Setup(setup)).for_completion(starter)
            assert sent == wanted.grammar, sample_id
    results = {json.loads(line)["sample"]: json.loads(line) for line in
               (tmp_path / "run" / "results.jsonl").read_text().splitlines()}
    assert len(results) == len(answers)
    for sample_id, result in results.items():
        if sample_id in honest:
            assert result["verdict"] == "correct", (sample_id, result)
        else:
            assert result["verdict"] == "nonexecutable" and result["error"] == "incomplete_request", sample_id
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run["backend_params"]["guided"] == style and run["setting"] == "constrained"


def test_a_starter_that_names_no_endpoint_is_unsatisfiable_without_asking_the_server(model_name, demo, server):
    from wapii_core.api import BackendOptions, RunContext
    from wapii_openai_models.backend import OpenAIBackend

    dataset, adapter = demo
    sample = dataset.samples[0]
    prompt = adapter.prompt(sample, Setup.argument, dataset)
    wrong = "axios.get('https://elsewhere.example.test/nothing',"
    bogus = prompt.model_copy(update={"text": prompt.text[:-len(prompt.starter)] + wrong, "starter": wrong})
    context = RunContext(dataset, adapter, Setup.argument, "reference", setting="constrained")
    backend = OpenAIBackend(BackendOptions(model=model_name, extra={"base_url": server.base_url, "chat": "false",
                                                                    "guided": "vllm", "no_cache": "true"}), context)
    try:
        good = GenerationRequest(sample=sample, prompt=prompt)
        gens = list(backend.generate([GenerationRequest(sample=sample, prompt=bogus), good]))
    finally:
        backend.close()
    # the default answer (a whole call) cannot follow the starter's comma: the server cuts it
    assert [g.finish_reason for g in gens] == ["unsatisfiable", "length"]
    assert gens[0].code == wrong and server.answered == 1 and backend.model_calls == 1


@pytest.mark.slow
@pytest.mark.parametrize("options, says", [
    ((), "-O guided=vllm"),
    (("guided=vllm", "chat=true"), "-O chat=false"),
    (("guided=sglang",), "guided"),
])
def test_constrained_runs_that_the_server_cannot_constrain_are_refused(tmp_path, model_name, server, options, says):
    done = run_cli(*run_args(server, model_name, tmp_path / "run", "full", *options))
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and server.requests == 0
    assert not (tmp_path / "run" / "generations.jsonl").exists()


def test_the_test_server_rejects_a_grammar_that_does_not_compile_and_cuts_answers_to_it():
    import urllib.error
    import urllib.request

    def post(server, body):
        request = urllib.request.Request(f"{server.base_url}/completions", json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())["choices"][0]

    grammar = 'start: "get(" /[a-z]+/ ")"'
    with OpenAIServer(lambda call: "get(abc1);") as server:
        choice = post(server, {"prompt": "x", "structured_outputs": {"grammar": grammar}})
        assert (choice["text"], choice["finish_reason"]) == ("get(abc", "length")
        assert accepts(grammar, "get(abc)") and not accepts(grammar, choice["text"])
        server.set_responder(lambda call: "get(abc) and more")
        choice = post(server, {"prompt": "x", "guided_grammar": grammar})
        assert (choice["text"], choice["finish_reason"]) == ("get(abc)", "stop")
        with pytest.raises(urllib.error.HTTPError) as failed:
            post(server, {"prompt": "x", "structured_outputs": {"grammar": 'start: "unclosed'}})
        assert failed.value.code == 400
