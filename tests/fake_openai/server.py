"""An OpenAI-compatible HTTP server of the project's own, for tests and benchmarks (127.0.0.1 only).

It serves ``POST /v1/completions``, ``POST /v1/chat/completions`` and ``GET /v1/models`` like
vLLM or OpenAI would, with answers scripted per test (a *responder*), counts every request (and
the most it had in flight at once), and injects faults on demand: 429 with ``Retry-After``, 5xx,
slow answers, malformed JSON and dropped connections. It also serves OpenAI's Batch API
(``/v1/files`` and ``/v1/batches``, :mod:`.batches`) with slow completion, expiry,
cancellation and per-line errors. A request with ``"stream": true`` is answered as server-sent events,
one word or space or punctuation mark per event (``token_delay`` seconds apart), with the usage last
when ``stream_options.include_usage`` asks for it; a client that hangs up mid-answer is counted
(``hung_up``). ``serial`` makes it generate one answer at a time, the others waiting in its queue,
as ``transformers serve`` does on a CPU. It applies ``stop`` strings the way real servers do (the answer ends before the
stop string, which is not returned), and guided decoding the way vLLM's ``guidance`` backend does:
a request with a grammar (``structured_outputs.grammar`` or the older ``guided_grammar``) gets a 400
when the grammar does not compile, and an answer cut to what the grammar allows (finish reason
``length`` when the allowed part is not a complete match)::

    with OpenAIServer(lambda call: "get('https://x.test/a');\\n") as server:
        server.inject(Fault("rate_limit", retry_after=0.1), Fault("drop"))
        ...  # point a client at server.base_url
        assert server.requests == 3

From a checkout's root: ``PYTHONPATH=tests python -m fake_openai --port 8000 --latency 0.1``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import socket
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Literal

if TYPE_CHECKING:
    from .batches import BatchService

FaultKind = Literal["rate_limit", "server_error", "slow", "malformed", "drop", "stall"]


@dataclass(frozen=True)
class Fault:
    """One injected failure: ``rate_limit`` (429, with ``Retry-After`` when ``retry_after`` is set),
    ``server_error`` (``status``, 500 by default), ``slow`` (answers after ``delay`` seconds),
    ``malformed`` (200 with a body that is not JSON), ``drop`` (closes the connection unanswered),
    ``stall`` (a streamed answer stops after two events for ``delay`` seconds, then goes on)."""

    kind: FaultKind
    retry_after: float | None = None
    delay: float = 0.0
    status: int = 500


@dataclass(frozen=True)
class ApiCall:
    """A request the server received."""

    endpoint: Literal["completions", "chat"]
    body: dict[str, Any]
    authorization: str | None = None

    @property
    def text(self) -> str:
        """The prompt (completions) or the messages' contents joined by blank lines (chat)."""
        if self.endpoint == "completions":
            prompt = self.body.get("prompt", "")
            return prompt if isinstance(prompt, str) else "".join(prompt)
        return "\n\n".join(str(m.get("content", "")) for m in self.body.get("messages", []))


@dataclass(frozen=True)
class Reply:
    """A scripted answer; a responder may return a plain string instead (finish reason "stop")."""

    text: str
    finish_reason: str = "stop"


Responder = Callable[[ApiCall], "str | Reply"]


def default_responder(call: ApiCall) -> Reply:
    """A deterministic axios answer derived from the prompt: a continuation for completions, a
    fenced program with prose for chat."""
    tag = hashlib.sha256(call.text.encode("utf-8")).hexdigest()[:8]
    url = f"https://api.example.test/items/{tag}"
    if call.endpoint == "completions":
        return Reply(f"get('{url}');\n```\n\nThat is all.")
    return Reply(f"Here is the call:\n\n```javascript\nconst axios = require('axios');\n\naxios.get('{url}');\n```\n")


@dataclass
class _State:
    responder: Responder
    latency: float
    api_key: str | None
    lock: threading.Lock = field(default_factory=threading.Lock)
    faults: list[Fault] = field(default_factory=list)
    batch_faults: list[Fault] = field(default_factory=list)  # for the next Batch API requests
    always: Fault | None = None
    requests: int = 0
    answered: int = 0
    by_endpoint: Counter = field(default_factory=Counter)
    calls: list[ApiCall] = field(default_factory=list)
    models: list[str] | None = None  # None: any model name is served, and none is listed
    in_flight: int = 0
    peak_in_flight: int = 0
    token_delay: float = 0.0  # streaming: seconds between events
    serial: threading.Lock | None = None  # held while generating, when answers are generated one at a time
    hung_up: int = 0  # streamed answers the client stopped reading
    hang_up: threading.Event = field(default_factory=threading.Event)  # set at the first of them
    streamed_events: int = 0  # text events written to clients
    batches: Any = None  # the Batch API (batches.BatchService)


def _grammar(body: dict[str, Any]) -> str | None:
    """The grammar a request asks its answer to follow, in either of vLLM's spellings."""
    structured = body.get("structured_outputs")
    if isinstance(structured, dict) and isinstance(structured.get("grammar"), str):
        return structured["grammar"]
    legacy = body.get("guided_grammar")
    return legacy if isinstance(legacy, str) else None


def _apply_stop(text: str, stop: Any) -> tuple[str, bool]:
    stops = [stop] if isinstance(stop, str) else list(stop or [])
    cuts = [text.find(s) for s in stops if s and s in text]
    return (text[:min(cuts)], True) if cuts else (text, False)


def answer(state: _State, endpoint: str, body: dict[str, Any], authorization: str | None) -> tuple[int, dict[str, Any]]:
    """``(status, payload)`` of one completions or chat request: the responder's answer, cut by the
    request's grammar and stop strings (also how the Batch API answers each line)."""
    call = ApiCall(endpoint, body, authorization)  # type: ignore[arg-type]
    reply = state.responder(call)
    reply = Reply(reply) if isinstance(reply, str) else reply
    grammar = _grammar(body)
    if grammar is not None:
        from wapii_core.grammar import allowed_prefix

        try:
            allowed, complete = allowed_prefix(grammar, reply.text)
        except ValueError as exc:
            return 400, {"error": {"message": f"grammar: {exc}", "type": "BadRequestError"}}
        reply = Reply(allowed, reply.finish_reason if complete else "length")
    text, stopped = _apply_stop(reply.text, body.get("stop"))
    reason = "stop" if stopped else reply.finish_reason
    choice: dict[str, Any] = {"index": 0, "finish_reason": reason}
    if endpoint == "chat":
        choice["message"] = {"role": "assistant", "content": text}
    else:
        choice["text"] = text
    with state.lock:
        state.answered += 1
        state.by_endpoint[endpoint] += 1
        state.calls.append(call)
        number = state.answered
    prompt = body.get("prompt") if endpoint == "completions" else " ".join(
        str(m.get("content", "")) for m in body.get("messages") or [] if isinstance(m, dict))
    usage = {"prompt_tokens": len(str(prompt or "").split()), "completion_tokens": len(text.split())}  # words
    return 200, {"id": f"cmpl-{number}", "object": "text_completion" if endpoint == "completions"
                 else "chat.completion", "model": body.get("model"), "choices": [choice], "usage": usage}


class _NoLock:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


_NO_LOCK = _NoLock()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body leave at once, not 40 ms apart (delayed ACKs)
    server: "_Server"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - quiet in tests
        pass

    def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    def _json(self, status: int, data: Any, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(data).encode("utf-8"), headers)

    def _authorised(self) -> bool:
        """Whether the request carries the server's key (when it has one); answers 401 when not."""
        state = self.server.state
        presented = self.headers.get("Authorization") or ""
        if state.api_key and presented != f"Bearer {state.api_key}":
            # some servers quote the key they were given: a client must keep it out of its own messages
            self._json(401, {"error": {"message": f"Incorrect API key provided: {presented.removeprefix('Bearer ')}",
                                       "type": "invalid_request_error"}})
            return False
        return True

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        state = self.server.state
        path = self.path.split("?", 1)[0].rstrip("/").removeprefix("/v1")
        if not self._authorised():
            return
        if path == "/models":
            if state.models is None:
                self._json(404, {"error": {"message": "this server lists no models (it serves any name)"}})
            else:
                self._json(200, {"object": "list", "data": [{"id": m, "object": "model"} for m in state.models]})
        elif path.startswith(("/files", "/batches")):
            if not self._batch_fault():
                self._reply(state.batches.get(self.path.removeprefix("/v1")))
        else:
            self._json(404, {"error": {"message": f"no route {self.path}"}})

    def _reply(self, outcome: tuple[int, Any]) -> None:
        status, payload = outcome
        if isinstance(payload, bytes):
            self._send(status, payload, {"Content-Type": "application/jsonl"})
        else:
            self._json(status, payload)

    def do_POST(self) -> None:  # noqa: N802
        state = self.server.state
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        path = self.path.rstrip("/").removeprefix("/v1")
        if path.startswith(("/files", "/batches")):
            if self._authorised() and not self._batch_fault():
                self._reply(state.batches.post(path, raw, self.headers.get("Content-Type", ""),
                                               self.headers.get("Authorization")))
            return
        endpoint = {"/completions": "completions", "/chat/completions": "chat"}.get(path)
        with state.lock:
            state.requests += 1
            fault = state.faults.pop(0) if state.faults else state.always
            state.in_flight += 1
            state.peak_in_flight = max(state.peak_in_flight, state.in_flight)
        try:
            self._complete(endpoint, raw, fault)
        finally:
            with state.lock:
                state.in_flight -= 1

    def _complete(self, endpoint: str | None, raw: bytes, fault: Fault | None) -> None:
        state = self.server.state
        if endpoint is None:
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        if not self._authorised():
            return
        if state.latency and state.serial is None:
            time.sleep(state.latency)
        if fault is not None and self._inject(fault):
            return
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            self._json(400, {"error": {"message": "request body is not JSON"}})
            return
        if state.models is not None and body.get("model") not in state.models:
            self._json(404, {"error": {"message": f"The model `{body.get('model')}` does not exist.",
                                       "type": "NotFoundError"}})
            return
        if body.get("stream"):
            self._stream(endpoint, body)
            return
        if state.serial is None:
            self._json(*answer(state, endpoint, body, self.headers.get("Authorization")))
            return
        with state.serial:
            time.sleep(state.latency)
            self._json(*answer(state, endpoint, body, self.headers.get("Authorization")))

    def _stream(self, endpoint: str, body: dict[str, Any]) -> None:
        """Answer as server-sent events in chunked transfer encoding (see the module docstring)."""
        state = self.server.state
        status, payload = answer(state, endpoint, body, self.headers.get("Authorization"))
        if status != 200:
            self._json(status, payload)
            return
        choice = payload["choices"][0]
        text = choice["message"]["content"] if endpoint == "chat" else choice["text"]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def event(data: dict[str, Any] | str) -> None:
            line = data if isinstance(data, str) else json.dumps({"id": payload["id"], **data})
            raw = f"data: {line}\n\n".encode("utf-8")
            self.wfile.write(b"%x\r\n%s\r\n" % (len(raw), raw))
            self.wfile.flush()

        def piece(content: str | None, reason: str | None = None) -> dict[str, Any]:
            if endpoint == "chat":
                delta = {"content": content} if content is not None else {"role": "assistant"}
                return {"choices": [{"index": 0, "delta": delta, "finish_reason": reason}]}
            return {"choices": [{"index": 0, "text": content or "", "finish_reason": reason}]}

        lock = state.serial or _NO_LOCK
        try:
            if endpoint == "chat":
                event(piece(None))  # the role comes at once, before the request waits for its turn
            with lock:
                if state.serial is not None:
                    time.sleep(state.latency)
                for number, token in enumerate(re.findall(r"\s+|\w+|[^\w\s]", text)):
                    if number and state.token_delay:
                        time.sleep(state.token_delay)
                    if number == 2 and getattr(self, "_stall", 0):
                        time.sleep(self._stall)
                        self._stall = 0.0
                    event(piece(token))
                    with state.lock:
                        state.streamed_events += 1
                # the answer's end is sent before the next answer begins, as a server that
                # generates one at a time emits it
                if endpoint == "chat":
                    event({"choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]})
                else:
                    event(piece("", choice["finish_reason"]))
            if (body.get("stream_options") or {}).get("include_usage"):
                event({"choices": [], "usage": payload["usage"]})
            event("[DONE]")
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:  # the client hung up (BrokenPipeError, ConnectionResetError)
            with state.lock:
                state.hung_up += 1
            state.hang_up.set()
            self.close_connection = True

    def _batch_fault(self) -> bool:
        """Play the next injected Batch API fault, if any; True when the request is finished with it."""
        state = self.server.state
        with state.lock:
            fault = state.batch_faults.pop(0) if state.batch_faults else None
        return fault is not None and self._inject(fault)

    def _inject(self, fault: Fault) -> bool:
        """Play ``fault``; True when the request is finished with it."""
        if fault.kind == "slow":
            time.sleep(fault.delay)
            return False
        if fault.kind == "stall":
            self._stall = fault.delay
            return False
        if fault.kind == "rate_limit":
            headers = {} if fault.retry_after is None else {"Retry-After": f"{fault.retry_after:g}"}
            self._json(429, {"error": {"message": "rate limited", "type": "rate_limit"}}, headers)
        elif fault.kind == "server_error":
            self._json(fault.status, {"error": {"message": "internal error", "type": "server_error"}})
        elif fault.kind == "malformed":
            self._send(200, b'{"choices": [{"text": "get(')
        elif fault.kind == "drop":
            self.close_connection = True
            try:
                self.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        return True


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
    state: _State

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that timed out or hung up mid-answer is part of the tests, not news


class OpenAIServer:
    """The server, running on a background thread from :meth:`start` (or ``with``) to :meth:`stop`."""

    def __init__(self, responder: Responder | None = None, *, latency: float = 0.0, api_key: str | None = None,
                 host: str = "127.0.0.1", port: int = 0, models: list[str] | None = None,
                 token_delay: float = 0.0, serial: bool = False) -> None:
        """``models``: the model names served and listed at ``GET /v1/models`` (another name gets a
        404); None serves any name and answers that listing with 404, as some servers do (a client's
        preflight refuses such a server). ``latency``: seconds before an answer begins (before its
        first token when streamed); ``token_delay``: seconds between streamed events; ``serial``:
        one answer generated at a time."""
        from .batches import BatchService

        self._state = _State(responder or default_responder, latency, api_key, models=models,
                             token_delay=token_delay, serial=threading.Lock() if serial else None)
        self._state.batches = BatchService(lambda endpoint, body, auth: answer(self._state, endpoint, body, auth),
                                           models)
        self._httpd = _Server((host, port), _Handler)
        self._httpd.state = self._state
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def requests(self) -> int:
        """POST requests received outside the Batch API, faulty ones included."""
        return self._state.requests

    @property
    def peak_in_flight(self) -> int:
        """The most completions / chat requests the server was handling at once (latency included)."""
        return self._state.peak_in_flight

    @property
    def hung_up(self) -> int:
        """Streamed answers the client stopped reading before their end."""
        return self._state.hung_up

    def wait_for_hang_up(self, seconds: float = 10.0) -> bool:
        """Whether a client hung up mid-answer (waiting up to ``seconds`` for the server to notice)."""
        return self._state.hang_up.wait(seconds)

    @property
    def streamed_events(self) -> int:
        """Text events written to streaming clients."""
        return self._state.streamed_events

    @property
    def batches(self) -> "BatchService":
        """The Batch API's state: ``created``, ``uploads``, ``behave(...)`` (see :mod:`.batches`)."""
        return self._state.batches

    @property
    def answered(self) -> int:
        """Requests answered with a valid completion."""
        return self._state.answered

    @property
    def calls(self) -> list[ApiCall]:
        """The answered requests, in order."""
        with self._state.lock:
            return list(self._state.calls)

    @property
    def by_endpoint(self) -> Counter:
        return Counter(self._state.by_endpoint)

    def inject(self, *faults: Fault) -> None:
        """Fail the next requests with ``faults``, one each, in order."""
        with self._state.lock:
            self._state.faults.extend(faults)

    def inject_batch_api(self, *faults: Fault) -> None:
        """Fail the next Batch API requests (``/v1/files``, ``/v1/batches``) with ``faults``, one each, in order."""
        with self._state.lock:
            self._state.batch_faults.extend(faults)

    def fail_always(self, fault: Fault | None) -> None:
        """Fail every request (after the injected ones) with ``fault``; None heals the server."""
        with self._state.lock:
            self._state.always = fault

    def set_responder(self, responder: Responder) -> None:
        self._state.responder = responder

    def set_latency(self, seconds: float) -> None:
        self._state.latency = seconds

    def reset_counts(self) -> None:
        with self._state.lock:
            self._state.requests = self._state.answered = self._state.peak_in_flight = 0
            self._state.hung_up = self._state.streamed_events = 0
            self._state.by_endpoint.clear()
            self._state.calls.clear()

    def start(self) -> "OpenAIServer":
        if self._thread is None:
            self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                            name="fake-openai-server", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        if self._thread is not None:
            self._httpd.shutdown()
            self._thread.join()
            self._thread = None
        self._httpd.server_close()

    def __enter__(self) -> "OpenAIServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def run_batch(input_path: str | Path, output_path: str | Path, responder: Responder | None = None) -> int:
    """Do what ``vllm run-batch -i INPUT -o OUTPUT`` does, answering each line as this server would
    (``responder``, stop strings, grammars): one ``{"id", "custom_id", "response": {"status_code",
    "request_id", "body"}, "error"}`` line per request. Returns the number of requests."""
    from .batches import ENDPOINTS

    state = _State(responder or default_responder, 0.0, None)
    records = []
    for number, raw in enumerate(Path(input_path).read_text(encoding="utf-8").splitlines()):
        if not raw.strip():
            continue
        request = json.loads(raw)
        kind = ENDPOINTS.get(request.get("url"))
        if kind is None or not isinstance(request.get("body"), dict):
            status, body = 400, {"error": {"message": f"unsupported url {request.get('url')!r}"}}
        else:
            status, body = answer(state, kind, request["body"], None)
        records.append({"id": f"vllm-{number}", "custom_id": request.get("custom_id"),
                        "response": {"status_code": status, "request_id": f"vllm-batch-{number}", "body": body},
                        "error": None})
    Path(output_path).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return len(records)


def main(argv: list[str] | None = None) -> None:
    """Serve :func:`default_responder` answers until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each answer")
    parser.add_argument("--api-key", default=None, help="require this bearer token")
    parser.add_argument("--model", action="append", default=None,
                        help="a model name to serve and list (repeat for several; default: any name)")
    parser.add_argument("--run-batch", nargs=2, metavar=("INPUT", "OUTPUT"),
                        help="answer a batch file the way `vllm run-batch -i INPUT -o OUTPUT` does, and exit")
    args = parser.parse_args(argv)
    if args.run_batch:
        print(f"{run_batch(*args.run_batch)} requests answered into {args.run_batch[1]}")
        return
    server = OpenAIServer(latency=args.latency, api_key=args.api_key, port=args.port, models=args.model).start()
    print(f"serving on {server.base_url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.stop()

