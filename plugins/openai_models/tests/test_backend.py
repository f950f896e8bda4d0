"""The openai backend against the project's own OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import re

import pytest

from fake_openai import Fault, OpenAIServer, Reply
from wapii_core.api import BackendOptions, GenerationRequest, Prompt, Sample, WapiiError
from wapii_openai_models.backend import OpenAIBackend

INSTRUCTIONS = "You are an assistant. Complete the code.\n\n```javascript\n"


SHORT = lambda call: "get('https://x.test/items/1');\n```\n"  # noqa: E731 - an answer that ends at the stop string
"""An answer of 17 events that ends with the stop string (the server has nothing left to send when it is cut)."""


EVENT = re.compile(r"\s+|\w+|[^\w\s]")
"""What the test server streams as one event."""


def requests_for(count: int, draws: int = 1) -> list[GenerationRequest]:
    out = []
    for i in range(count):
        starter = f"// task {i}\nconst axios = require('axios');\n\naxios."
        sample = Sample(api="demo", index=i, task=f"task {i}", config={"url": "u", "method": "get", "headers": {}})
        for d in range(draws):
            out.append(GenerationRequest(sample=sample, draw=d, prompt=Prompt(
                text=INSTRUCTIONS + starter, starter=starter, instructions=INSTRUCTIONS)))
    return out


def backend(server: OpenAIServer, model: str, draws: int = 1, **extra: str) -> OpenAIBackend:
    options = {"base_url": server.base_url, "backoff": "0.01", "max_backoff": "0.05", **extra}
    return OpenAIBackend(BackendOptions(model=model, draws=draws, extra=options))


def generate(b: OpenAIBackend, reqs: list[GenerationRequest]):
    try:
        return sorted(b.generate(reqs), key=lambda g: (g.sample, g.draw))
    finally:
        b.close()


def test_a_base_model_continues_the_prompt_through_the_completions_endpoint(server, model_name):
    gens = generate(backend(server, model_name), requests_for(3))
    assert server.by_endpoint == {"completions": 3}
    body = server.calls[0].body
    assert body["model"] == model_name and body["prompt"].startswith(INSTRUCTIONS)
    assert body["temperature"] == 0.0 and body["max_tokens"] == 250 and body["stream"] is True
    assert "stop" not in body  # applied here, on the answer alone (see test_stop.py)
    for gen in gens:
        assert gen.error is None and gen.finish_reason == "stop"
        assert gen.code.startswith(f"// task {gen.sample.split('/')[1]}\n")
        assert "\naxios.get('https://api.example.test/items/" in gen.code and gen.code.endswith("');\n```")
        # the answer as generated, up to and with the stop string (as the hf backend keeps it)
        assert gen.raw.endswith("');\n```\n") and "That is all" not in gen.raw
        assert gen.code == requests_for(3)[int(gen.sample.split("/")[1])].prompt.starter + gen.raw[:-1]
        assert gen.prompt in [call.body["prompt"] for call in server.calls]  # the prompt as sent, and its cost
        # cut here at the stop string: the server's usage (sent at its end) never came, so the tokens
        # out are the streamed events and the tokens in are not known
        assert gen.timings.tokens_in is None and gen.timings.tokens_out == len(EVENT.findall(gen.raw))
        assert gen.timings.queue_s is not None and gen.timings.latency_s is not None  # apart, when streamed


def test_an_instruction_model_goes_through_chat_and_its_answer_becomes_a_program(server):
    gens = generate(backend(server, "acme/coder-7b-instruct", no_cache="true"), requests_for(2))
    assert server.by_endpoint == {"chat": 2}
    messages = server.calls[0].body["messages"]
    # the core's prompt (model_input): one user message, asking for the code without explanations
    starter = requests_for(1)[0].prompt.starter
    assert messages == [{"role": "user", "content": INSTRUCTIONS + starter}]
    for gen in gens:
        assert gen.code.startswith("// task ") and "\naxios.get('https://api.example.test/items/" in gen.code
        assert "Here is the call" not in gen.code and "```" not in gen.code
        assert "Here is the call" in gen.raw and "```" in gen.raw  # the answer before post-processing
        assert [[m.model_dump() for m in gen.prompt]] == [c.body["messages"] for c in server.calls
                                                          if c.body["messages"] == [m.model_dump() for m in gen.prompt]]
        assert gen.timings.tokens_out == len(EVENT.findall(gen.raw))  # cut here: the streamed events


def test_the_split_system_prompt_is_an_option(server):
    generate(backend(server, "acme/coder-7b-instruct", no_cache="true", system="split"), requests_for(1))
    messages = server.calls[0].body["messages"]
    assert messages[0] == {"role": "system", "content": "You are an assistant."}
    assert messages[1]["role"] == "user" and messages[1]["content"].startswith("Complete the code")


def test_sampled_draws_use_the_papers_temperature_and_a_seed_per_draw(server, model_name):
    generate(backend(server, model_name, draws=3, seed="10"), requests_for(1, draws=3))
    bodies = sorted((c.body for c in server.calls), key=lambda b: b["seed"])
    assert [b["seed"] for b in bodies] == [10, 11, 12]
    assert {b["temperature"] for b in bodies} == {0.2}


def test_transient_faults_are_retried_until_they_recover(server, model_name):
    server.inject(Fault("rate_limit", retry_after=0.05), Fault("server_error"), Fault("server_error", status=503),
                  Fault("malformed"), Fault("drop"), Fault("slow", delay=1.5))
    gens = generate(backend(server, model_name, timeout="0.5", concurrency="2"), requests_for(4))
    assert [g.error for g in gens] == [None] * 4
    assert server.requests == 4 + 6 and server.answered == 4


def test_retry_after_is_honoured(server, model_name):
    server.inject(Fault("rate_limit", retry_after=0.6))
    b = backend(server, model_name, concurrency="1")
    client, _ = b._ensure_started()
    asked: list[float] = []
    client.sleep = lambda seconds: asked.append(seconds)  # what the client waits, recorded instead of slept
    gens = generate(b, requests_for(1))
    # the server's 0.6 s (plus at most 10 % jitter), not the 0.01 s backoff of the options
    assert gens[0].error is None and len(asked) == 1 and 0.6 <= asked[0] <= 0.66


def test_a_server_that_keeps_failing_yields_failed_generations_and_keeps_the_finished(server, model_name):
    calls = {"n": 0}

    def answer_then_break(call):
        calls["n"] += 1
        if calls["n"] == 3:
            server.fail_always(Fault("server_error"))
        return Reply("get('https://x.test/ok');")

    server.set_responder(answer_then_break)
    gens = generate(backend(server, model_name, concurrency="1", retries="2"), requests_for(5))
    ok = [g for g in gens if g.error is None]
    failed = [g for g in gens if g.error is not None]
    assert len(ok) == 3 and len(failed) == 2
    assert all(g.finish_reason == "error" and g.code is None and "gave up after 3 attempts" in g.error
               and "HTTP 500" in g.error for g in failed)
    # the finished ones were cached: after the server heals only the failed ones are asked again
    server.fail_always(None)
    server.reset_counts()
    again = generate(backend(server, model_name), requests_for(5))
    assert server.requests == 2 and all(g.error is None for g in again)


def test_a_refused_request_is_not_retried(server, model_name):
    server.fail_always(Fault("server_error", status=400))
    gens = generate(backend(server, model_name, retries="4"), requests_for(1))
    assert server.requests == 1 and "HTTP 400" in gens[0].error


def test_a_rerun_is_served_from_the_cache_and_no_cache_asks_again(server, model_name):
    first = generate(backend(server, model_name), requests_for(6))
    assert server.requests == 6
    b = backend(server, model_name)
    second = generate(b, requests_for(6))
    untimed = lambda gens: [g.model_copy(update={"timings": None}) for g in gens]  # noqa: E731
    assert server.requests == 6 and b.model_calls == 0 and untimed(second) == untimed(first)
    assert all(g.timings.latency_s is None for g in second)  # a cached answer cost nothing
    third = generate(backend(server, model_name, no_cache="true"), requests_for(6))
    assert server.requests == 12 and untimed(third) == untimed(first)


def test_the_cache_is_shared_across_base_urls(model_name):
    with OpenAIServer() as one, OpenAIServer() as two:
        generate(backend(one, model_name), requests_for(3))
        generate(backend(two, model_name), requests_for(3))
        assert one.requests == 3 and two.requests == 0


def test_several_base_urls_share_the_load_and_route_around_a_dead_one(model_name):
    with OpenAIServer() as one, OpenAIServer() as two:
        dead = OpenAIServer()
        dead_url = dead.base_url
        dead.stop()  # its port now refuses connections
        urls = ",".join([one.base_url, two.base_url, dead_url])
        b = OpenAIBackend(BackendOptions(model=model_name, extra={"base_url": urls, "concurrency": "3",
                                                                   "backoff": "0.01"}))
        gens = generate(b, requests_for(12))
        assert all(g.error is None for g in gens)
        assert one.answered >= 3 and two.answered >= 3 and one.answered + two.answered == 12


def test_concurrency_fills_a_server_that_serves_requests_at_once(model_name):
    with OpenAIServer(latency=0.5) as slow:
        gens = generate(backend(slow, model_name, concurrency="8"), requests_for(16))
        peak = slow.peak_in_flight
    # one request at first, then one more per request the server started at once (rounds of 1, 2,
    # 4, then 8 in flight), up to the cap
    assert len(gens) == 16 and all(g.error is None for g in gens) and peak == 8


def test_a_server_that_generates_one_at_a_time_gets_one_request_waiting_not_a_queue(model_name):
    # the first answer streams for 3 s, the others for about 1 s: the second request, sent at the
    # first one's first token, waits about 3 s for its own, which reads as queued unless that first
    # token took over 1.3 s (the queue is told by a first token later than twice the fastest plus
    # 0.25 s; the first request's is the fastest known then, connecting included). From then on a
    # request goes only when none is waiting for its first token, however the threads interleave.
    long = "get('https://x.test/items/1', { " + ", ".join(f"p{i}: {i}" for i in range(6)) + " });\n```\n"
    assert len(EVENT.findall(long)) >= 60 and len(EVENT.findall(SHORT(None))) <= 22
    arrivals = []

    def first_long(call):
        arrivals.append(call)
        return long if len(arrivals) == 1 else SHORT(call)

    with OpenAIServer(first_long, serial=True, token_delay=0.05) as serial:
        b = backend(serial, model_name, concurrency="8")
        client, _ = b._ensure_started()
        gens = generate(b, requests_for(5))
    assert all(g.error is None for g in gens) and serial.requests == 5
    flow = client.flow
    assert flow.queued_seen >= 1 and flow.peak_waiting_following == 1  # the one generating and the next one


def test_a_queued_request_is_not_timed_out_while_the_server_works_on_others(model_name):
    """The death spiral of a timeout per request: a request waiting in the server's queue longer
    than the timeout was cancelled and sent again to the back of the queue. Here every answer takes
    longer than the timeout, but tokens keep coming: nothing is cancelled or retried."""
    with OpenAIServer(SHORT, serial=True, token_delay=0.04) as serial:
        gens = generate(backend(serial, model_name, timeout="0.25", concurrency="3", adaptive="false",
                                retries="0"), requests_for(3))
        assert serial.peak_in_flight == 3  # two of them waited behind the first
    assert [g.error for g in gens] == [None] * 3 and serial.requests == 3


def test_a_stream_that_stops_making_progress_is_retried(server, model_name):
    server.inject(Fault("stall", delay=1.0))
    gens = generate(backend(server, model_name, timeout="0.2", retries="1"), requests_for(1))
    assert gens[0].error is None and server.requests == 2 and server.wait_for_hang_up()


def test_without_streaming_the_server_stops_and_the_timing_is_the_whole_answer(server, model_name):
    gens = generate(backend(server, model_name, stream="false"), requests_for(2))
    assert all("stream" not in c.body and c.body["stop"] == ["\n```\n"] for c in server.calls)
    for gen in gens:  # the server left the stop string out: the program has no closing fence
        assert gen.raw.endswith("');") and gen.timings.queue_s is None and gen.timings.latency_s is not None


def test_the_api_key_is_sent_but_never_described_or_logged(monkeypatch, model_name):
    secret = "sk-test-0123456789abcdef"
    monkeypatch.setenv("WAPII_TEST_KEY", secret)
    with OpenAIServer(api_key=secret) as guarded:
        b = backend(guarded, model_name, api_key_env="WAPII_TEST_KEY")
        assert secret not in json.dumps(b.describe())
        gens = generate(b, requests_for(1))
        assert gens[0].error is None and guarded.calls[0].authorization == f"Bearer {secret}"
        monkeypatch.setenv("WAPII_TEST_KEY", "wrong")
        gens = generate(backend(guarded, model_name, api_key_env="WAPII_TEST_KEY", no_cache="true"), requests_for(1))
        assert "HTTP 401" in gens[0].error and "wrong" not in gens[0].error


def test_describe_names_what_determines_the_answers_only(server, model_name):
    b = backend(server, model_name, concurrency="4", timeout="9", retries="1")
    assert b.describe() == {"model": model_name, "endpoint": "completions", "max_new_tokens": 250,
                            "temperature": 0.0, "top_p": 1.0, "stop": "\n```\n", "stop_at": "client"}
    b.close()


@pytest.mark.parametrize("extra, message", [
    ({"concurency": "4"}, "unknown option 'concurency'"),
    ({"base_url": "ftp://x"}, "not an http:// or https:// URL"),
    ({"temperature": "hot"}, "option temperature"),
    ({"chat": "maybe"}, "option chat"),
])
def test_bad_options_are_one_line_errors(extra, message):
    with pytest.raises(WapiiError, match=message):
        OpenAIBackend(BackendOptions(model="m", extra=extra))


def test_a_model_is_required():
    with pytest.raises(WapiiError, match="needs --model"):
        OpenAIBackend(BackendOptions(model=None))
