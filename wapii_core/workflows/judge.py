"""One workflow program judged: its requests aligned with the task's calls, and its end state.

The program's exchanges are its steps, except requests answered ``429`` (the task's injected
faults: a correct program sends them again). Each request is read as it went on the wire
(:func:`~wapii_core.judge.sent_request.normalise_wire_request`, transport headers left out) and
checked against the spec alone (an illegal endpoint or argument makes the sample ``illegal``). The
requests are aligned with the expected calls in order (a longest common subsequence of spec
operations), and each aligned pair is judged with the wire mode's rules, the program's identifiers
mapped to the expected run's first (the end state pairs them). The verdict (docs/workflows.md):

- ``nonexecutable``: the program sent nothing (it did not run, or failed before its first request);
- ``illegal``: some request is not legal under the spec;
- ``correct``: in a task that changes something, the end state matches, no expected write is
  missing and nothing was damaged; in a task that changes nothing, every expected read was sent
  and judged correct, and nothing was damaged;
- ``wrong`` otherwise. ``workflow.failed`` says which condition failed.
"""

from __future__ import annotations

import json
from typing import Any, Callable
from urllib.parse import urlsplit, urlunsplit

from wapii_core.base.model import SPECIAL_HEADERS, Capture, Exchange, Sample, SampleResult, WorkflowResult, WorkflowStep
from wapii_core.workflows.replay import Replay
from wapii_core.workflows.state import Generated, _mapped, compare_states

READS = ("get", "head", "options")
TRANSPORT_HEADERS = frozenset({"host", "content-length", "connection", "user-agent", "accept-encoding",
                               "transfer-encoding", "keep-alive", "expect", "te", "upgrade", "http2-settings",
                               "accept-language", "sec-fetch-mode"})
"""Headers a library or the transport writes on its own (fetch's ``accept-language: *`` and
``sec-fetch-mode: cors`` among them), whatever their value: not part of what a program is judged on
in a workflow (a program that sets one of them itself is not judged on it either)."""


CANONICAL = {name.lower(): name for name in SPECIAL_HEADERS}
"""``accept`` as ``Accept``: the spelling the judge gives the headers that never count (a request's
headers are judged by name regardless of case)."""


def _transport(name: str, value: str) -> bool:
    return name.lower() in TRANSPORT_HEADERS


def sent_config(exchange: Exchange) -> dict[str, Any]:
    """The neutral request configuration of one exchange, as it went on the wire."""
    import base64

    from wapii_core.judge.sent_request import normalise_wire_request
    from wapii_core.sandbox.wire_capture import WireRequest

    message = exchange.request
    body = (message.body.encode("utf-8") if message.body is not None
            else base64.b64decode(message.body_base64) if message.body_base64 else b"")
    headers = [(CANONICAL.get(str(pair[0]).lower(), str(pair[0])), str(pair[1]))
               for pair in message.headers if len(pair) == 2]
    config = normalise_wire_request(WireRequest(exchange.method, exchange.url, headers, body), own_header=_transport)
    if isinstance(config.get("data"), str) and not any(name.lower() == "content-type" for name, _ in headers):
        try:  # no Content-Type: a JSON body, as the wire mode reads one (axios's in-process capture sends none)
            config["data"] = json.loads(config["data"])
        except ValueError:
            pass
    return config


def _map_ids(config: dict[str, Any], ids: dict[str, str]) -> dict[str, Any]:
    """``config`` with the program's identifiers replaced by the expected run's (whole values, and
    whole segments of the URL's path)."""
    if not ids:
        return config
    out = _mapped(config, ids)
    for key in ("url", "sent_url"):
        if isinstance(config.get(key), str):
            parts = urlsplit(config[key])
            path = "/".join(ids.get(segment, segment) for segment in parts.path.split("/"))
            out[key] = urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))
    return out


def operation(spec: Any, config: dict[str, Any]) -> str | None:
    """``POST /tasks``: the spec operation a request's URL (as sent) and method name, or None."""
    url = config.get("sent_url", config.get("url"))
    method = config.get("sent_method", config.get("method"))
    if not isinstance(url, str) or not isinstance(method, str):
        return None
    paths = spec.candidates(url, True)
    return f"{method.upper()} {paths[0]}" if paths else None


def _align(sent: list[str | None], expected: list[str | None]) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` of a longest common subsequence of two lists of operations (None matches nothing)."""
    n, m = len(sent), len(expected)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            table[i][j] = (table[i + 1][j + 1] + 1 if sent[i] is not None and sent[i] == expected[j]
                           else max(table[i + 1][j], table[i][j + 1]))
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if sent[i] is not None and sent[i] == expected[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def judge_workflow(sample: Sample, spec: Any, expected: Replay, capture: Capture, state: dict[str, Any] | None,
                   generated: Generated, *, call: str | None = None, draw: int = 0,
                   judge_pair: Callable[..., SampleResult] | None = None) -> SampleResult:
    """The :class:`SampleResult` of one program of workflow task ``sample`` (see the module
    docstring): ``expected`` is the task's replay, ``capture`` the program's (with its exchanges),
    ``state`` its mock's end state, ``generated`` the mock's objects before requests
    (:meth:`~wapii_core.mock.responder.SpecResponder.generated`), ``spec`` the API's
    :class:`~wapii_core.openapi.index.SpecIndex`."""
    from wapii_core.judge.wire import judge_wire

    judge_pair = judge_pair or judge_wire
    exchanges = capture.exchanges or []
    steps_sent = [i for i, x in enumerate(exchanges) if x.status != 429]
    base = dict(sample=sample.id, draw=draw, api=sample.api, call=call, mode="wire", exchanges=capture.exchanges,
                error=capture.error, error_detail=capture.detail)
    if not steps_sent:
        outcome = WorkflowResult(expected_steps=len(expected.steps), failed=["did_not_run"])
        return SampleResult(**{**base, "error": capture.error or "no_request"}, verdict="nonexecutable",
                            workflow=outcome)

    diff = compare_states(expected.before, expected.after, state or {}, generated)
    configs = {i: _map_ids(sent_config(exchanges[i]), diff.ids) for i in steps_sent}

    def as_sample(config: dict[str, Any]) -> Sample:
        return sample.model_copy(update={"config": config, "calls": None, "setup_calls": None})

    wanted = expected.operations or [operation(spec, step.call) for step in expected.steps]
    expected.operations = wanted
    pairs = _align([operation(spec, configs[i]) for i in steps_sent], wanted)
    paired_sent = {steps_sent[i]: j for i, j in pairs}
    paired_expected = {j: steps_sent[i] for i, j in pairs}

    steps: list[WorkflowStep] = []
    first: SampleResult | None = None
    correct = illegal = extra = missing_writes = 0
    for j, step in enumerate(expected.steps):
        write = str(step.call.get("method", "get")).lower() not in READS
        if j not in paired_expected:
            missing_writes += write
            steps.append(WorkflowStep(expected=j, endpoint=wanted[j], write=write))
            continue
        i = paired_expected[j]
        result = judge_pair(as_sample(step.call), spec, configs[i])
        first = first or result
        correct += result.verdict == "correct"
        steps.append(WorkflowStep(expected=j, sent=i, endpoint=result.resolved_endpoint or wanted[j], write=write,
                                  verdict=result.verdict, reasons=result.reasons))
    own: dict[int, SampleResult] = {}
    for i in steps_sent:
        if i in paired_sent:  # its pair's verdict says whether it is legal (the same operation)
            illegal += steps[paired_sent[i]].verdict == "illegal"
            continue
        own[i] = judge_pair(as_sample(configs[i]), spec, configs[i])  # against itself: legal or not
        illegal += own[i].verdict == "illegal"
        extra += 1
        steps.append(WorkflowStep(sent=i, endpoint=own[i].resolved_endpoint, verdict=own[i].verdict,
                                  reasons=own[i].reasons, write=str(exchanges[i].method).lower() not in READS))
    steps.sort(key=lambda s: (s.sent if s.sent is not None else 10**6, s.expected if s.expected is not None else -1))

    changes = any(str(step.call.get("method", "get")).lower() not in READS for step in expected.steps)
    failed = []
    if illegal:
        failed.append("illegal_request")
    if changes:
        if not diff.matches:
            failed.append("end_state")
        if missing_writes:
            failed.append("missing_write")
    elif correct < len(expected.steps):
        failed.append("requests")
    if diff.damage:
        failed.append("damage")
    verdict = "illegal" if illegal else "wrong" if failed else "correct"
    outcome = WorkflowResult(steps=steps, expected_steps=len(expected.steps), sent_steps=len(steps_sent),
                             correct_steps=correct, extra=extra, illegal=illegal, missing_writes=missing_writes,
                             end_state=diff.matches, missing=diff.missing, damage=diff.damage, failed=failed)
    view = first or own[steps_sent[0]]
    return SampleResult(**base, verdict=verdict, workflow=outcome, url=view.url, method=view.method,
                        endpoint=view.endpoint, arguments=view.arguments, expected_arguments=view.expected_arguments,
                        request=configs[steps_sent[0]], expected_request=sample.config, reasons=view.reasons,
                        resolved_endpoint=view.resolved_endpoint)
