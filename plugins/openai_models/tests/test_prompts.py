"""One prompt per model and setup: what the ``openai`` backend sends is what the ``hf`` backend builds,
and the stop string is applied to the answer alone, on the client."""

from __future__ import annotations

import json

import pytest

from fake_openai import OpenAIServer
from wapii_core.api import BackendOptions, GenerationRequest, Prompt, Sample
from wapii_core.kits.models import model_input
from wapii_hf_models.backend import HFBackend
from wapii_openai_models.backend import OpenAIBackend, server_stop
from wapii_openai_models.retry import Transient
from wapii_openai_models.stream import read_events

INSTRUCTIONS = ("You are a coding assistant. Use the axios library to list the books of the Library API.\n"
                "Complete the following code snippet:\n\n```javascript\n")
STARTER = "const axios = require('axios');\n\naxios."


def request() -> GenerationRequest:
    sample = Sample(api="demo", index=0, task="list the books", config={"url": "u", "method": "get", "headers": {}})
    return GenerationRequest(sample=sample, prompt=Prompt(text=INSTRUCTIONS + STARTER, starter=STARTER,
                                                          instructions=INSTRUCTIONS, call_start="axios."))


def sent_by_openai(server: OpenAIServer, model: str, **extra: str) -> dict:
    backend = OpenAIBackend(BackendOptions(model=model, extra={"base_url": server.base_url, "chat": "true",
                                                               "no_cache": "true", **extra}))
    try:
        list(backend.generate([request()]))
    finally:
        backend.close()
    return server.calls[-1].body


def built_by_hf(model_dir, **extra: str):
    """The hf backend's input for the same request (its chat template renders these messages)."""
    backend = HFBackend(BackendOptions(model=str(model_dir), extra={"chat": "true", "no_cache": "true", **extra}))
    try:
        return backend, backend._item(request()).prompt
    finally:
        backend.close()


@pytest.mark.parametrize("prefill", ["false", "true"])
@pytest.mark.parametrize("system", ["none", "split"])
def test_a_chat_request_through_openai_is_the_one_hf_builds(server, tmp_path, prefill, system):
    body = sent_by_openai(server, "acme/coder-instruct", prefill=prefill, system=system)
    hf, messages = built_by_hf(tmp_path, prefill=prefill, system=system)
    assert body["messages"] == messages == model_input(INSTRUCTIONS + STARTER, STARTER, chat=True, system=system,
                                                       prefill=prefill == "true")
    assert body["max_tokens"] == hf.params.max_new_tokens and body["temperature"] == hf.params.temperature
    if prefill == "true":  # the assistant's turn is begun with the starter, and the server told to continue it
        assert messages[-1] == {"role": "assistant", "content": "```javascript\n" + STARTER}
        assert body["continue_final_message"] is True and body["add_generation_prompt"] is False
    else:
        assert messages[-1]["role"] == "user" and "snippet without any explanations:" in messages[-1]["content"]
        assert "continue_final_message" not in body


def test_a_base_model_gets_the_prompt_text_through_either_backend(server, tmp_path):
    backend = OpenAIBackend(BackendOptions(model="acme/coder", extra={"base_url": server.base_url, "no_cache": "true"}))
    try:
        list(backend.generate([request()]))
    finally:
        backend.close()
    hf = HFBackend(BackendOptions(model=str(tmp_path), extra={"chat": "false"}))
    assert server.calls[-1].body["prompt"] == hf._item(request()).prompt == INSTRUCTIONS + STARTER


def events(*pieces: str, done: bool = True) -> list[bytes]:
    lines = [f"data: {json.dumps({'choices': [{'index': 0, 'text': p}]})}\n\n" for p in pieces]
    lines.append('data: {"choices": [{"index": 0, "text": "", "finish_reason": "length"}]}\n\n')
    if done:
        lines.append("data: [DONE]\n\n")
    return [line.encode() for line in lines]


def read(chunks: list[bytes], stop: str | None = "\n```\n"):
    feed = iter(chunks + [b""])
    seen: list[bool] = []
    got = read_events(lambda: next(feed), "completions", stop, on_text=seen.append)
    return got, seen


def test_the_stop_string_is_found_across_events_and_the_rest_is_not_read():
    chunks = events("get('x');", "\n`", "``", "\nmore", " text")
    got, seen = read(chunks)
    assert got.text == "get('x');\n```\n" and got.cut_by_client and got.finish_reason == "stop"
    assert seen == [True, False, False, False]  # the events read: the fourth holds the end of the stop string
    assert got.tokens_out == 4 and got.tokens_in is None


def test_an_answer_that_opens_with_the_fence_is_not_cut_before_it_begins():
    """transformers serve matched the stop string across the end of a chat prompt ("assistant\\n"
    then "```\\n"...) and stopped after two tokens; here only the answer is searched."""
    got, _ = read(events("```\n", "get('x');", "\n```\n", "tail"))
    assert got.text == "```\nget('x');\n```\n"


def test_an_answer_without_the_stop_string_runs_to_its_end_with_the_servers_reason():
    got, seen = read(events("get(", "'x');", done=False))  # no [DONE]: some servers leave it out
    assert got.text == "get('x');" and got.finish_reason == "length" and not got.cut_by_client and len(seen) == 2


def test_an_error_event_mid_stream_is_a_transient_failure():
    with pytest.raises(Transient, match="error mid-answer"):
        read([b'data: {"choices": [{"text": "get("}]}\n\n', b'data: {"error": "engine died"}\n\n'])


@pytest.mark.parametrize("prompt, safe", [
    ("```javascript\naxios.", True),
    ("```javascript\nconst x = 1;\n", False),  # ends with "\n", the stop string's beginning
    ("```javascript\n\n``", False),
    ("say `", True),
])
def test_the_stop_string_goes_to_a_server_only_where_it_cannot_match_across_the_prompts_end(prompt, safe):
    assert server_stop(prompt, "\n```\n") is safe


def test_without_streaming_a_risky_prompt_is_cut_here_not_by_the_server(server):
    backend = OpenAIBackend(BackendOptions(model="acme/coder", extra={"base_url": server.base_url, "stream": "false"}))
    risky = request().model_copy(update={"prompt": Prompt(text="```javascript\nx;\n", starter="x;\n")})
    assert "stop" not in backend._call(risky).body and backend._call(request()).body["stop"] == ["\n```\n"]
    assert backend.describe()["stop_at"] == "server-if-safe"
    backend.close()


def test_a_streamed_answer_ends_once_its_call_is_complete_as_in_the_hf_backend(model_name):
    """The hf backend's rule (wapii_core.generation.call_stop) on the streamed events: the rest of
    the answer (a handler, a second example) is neither waited for nor paid for."""
    from wapii_axios_js.adapter import AxiosAdapter
    from wapii_core.api import RunContext, Setup
    from wapii_core.testing import load_demo

    call = "get('https://api.example.test/books', { params: { limit: 10 } });\n"
    rest = "\n".join(f"console.log('line {i}');" for i in range(8)) + "\n```\n"
    dataset, adapter = load_demo(), AxiosAdapter()
    try:
        context = RunContext(dataset, adapter, Setup.full, "reference")
        sample = dataset.samples[0]
        req = GenerationRequest(sample=sample, prompt=adapter.prompt(sample, Setup.full, dataset))
        with OpenAIServer(lambda _: call + rest, models=[model_name], token_delay=0.01) as server:
            backend = OpenAIBackend(BackendOptions(model=model_name, extra={
                "base_url": server.base_url, "no_cache": "true"}), context)
            try:
                (gen,) = list(backend.generate([req]))
            finally:
                backend.close()
            assert backend.describe()["stop_at_call"] is True
            assert gen.raw == call[:-1] and gen.finish_reason == "stop" and server.wait_for_hang_up()  # at its ";"
            off = OpenAIBackend(BackendOptions(model=model_name, extra={
                "base_url": server.base_url, "no_cache": "true", "stop_at_call": "false"}), context)
            try:
                (whole,) = list(off.generate([req]))
            finally:
                off.close()
            assert whole.raw == call + rest and "stop_at_call" not in off.describe()
    finally:
        adapter.close()


@pytest.mark.parametrize("backend_name", ["openai", "hf"])
def test_a_chat_answer_is_not_read_as_the_starters_continuation(backend_name, tmp_path, model_name):
    """Without prefill a chat answer opens with prose or a fence: starter + "```\\n" must not pass for
    a complete call (it did, and every chat answer through transformers serve ended after two tokens)."""
    from wapii_axios_js.adapter import AxiosAdapter
    from wapii_core.api import RunContext, Setup
    from wapii_core.testing import load_demo

    adapter = AxiosAdapter()
    try:
        context = RunContext(load_demo(), adapter, Setup.full, "reference")
        extra = {"chat": "true", "no_cache": "true"}
        if backend_name == "openai":
            chat = OpenAIBackend(BackendOptions(model=model_name, extra={**extra, "base_url": "http://127.0.0.1:9/v1"}),
                                 context)
            prefilled = OpenAIBackend(BackendOptions(model=model_name, extra={
                **extra, "base_url": "http://127.0.0.1:9/v1", "prefill": "true"}), context)
        else:
            chat = HFBackend(BackendOptions(model=str(tmp_path), extra={**extra, "prefill": "false"}), context)
            prefilled = HFBackend(BackendOptions(model=str(tmp_path), extra=extra), context)
        assert chat.stop_at_call is False and "stop_at_call" not in chat.describe()
        assert prefilled.stop_at_call is True and prefilled.describe()["stop_at_call"] is True
        chat.close()
        prefilled.close()
    finally:
        adapter.close()


def test_an_endless_event_is_refused_not_buffered(monkeypatch):
    import wapii_openai_models.stream as stream

    monkeypatch.setattr(stream, "MAX_EVENT_BYTES", 1000)
    endless = iter([b'data: {"choices": [{"text": "'] + [b"x" * 100] * 20 + [b""])
    with pytest.raises(Transient, match="longer than 1000 bytes"):
        read_events(lambda: next(endless), "completions", None, on_text=lambda first: None)
