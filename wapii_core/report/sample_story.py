"""One sample and draw of a run, told on the terminal (``wapii show``): the task, the prompt, the program
with the judged call marked, the expected request beside the captured one as a diff, every verdict
with its reason, and, where a responder answered the program, every exchange in order, all read
from the run record (:mod:`wapii_core.store.record`).
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group
from rich.text import Text

from wapii_core.base.model import ChatMessage
from wapii_core.base.text import visible
from wapii_core.store.record import GenerationLine, ResultLine, RunRecord

FOLD_LINES = 4
"""Lines of a folded prompt (or of each of its messages) shown at its start and at its end."""


@dataclass
class SampleStory:
    """What ``wapii show`` tells of one sample and draw."""

    directory: str
    run: RunRecord
    sample: str
    draw: int
    task: str | None
    generation: GenerationLine | None
    result: ResultLine | None


def _heading(title: str) -> Text:
    return Text(f"\n{title}", style="bold")


def _folded(text: str, whole: bool) -> list[str]:
    lines = text.splitlines() or [""]
    if whole or len(lines) <= 2 * FOLD_LINES + 1:
        return lines
    hidden = len(lines) - 2 * FOLD_LINES
    return [*lines[:FOLD_LINES], f"... {hidden} lines folded (--prompt shows the whole prompt) ...",
            *lines[-FOLD_LINES:]]


def prompt_lines(prompt: str | list[ChatMessage] | None, whole: bool) -> list[str]:
    """The prompt as shown: text folded to its first and last lines (unless ``whole``), or each chat
    message under its role; control characters made visible (:func:`visible`)."""
    if isinstance(prompt, str):
        prompt = visible(prompt.replace("\r\n", "\n"), lines=True)
    elif prompt is not None:
        prompt = [ChatMessage(role=visible(m.role), content=visible(m.content.replace("\r\n", "\n"), lines=True))
                  for m in prompt]
    if prompt is None:
        return ["(not recorded: the run was made before prompts were stored)"]
    if isinstance(prompt, str):
        size = f"({len(prompt)} characters, {len(prompt.splitlines())} lines)"
        return [size, *(f"  {line}" for line in _folded(prompt, whole))]
    out = [f"({len(prompt)} chat messages)"]
    for message in prompt:
        out.append(f"  [{message.role}]")
        out += [f"    {line}" for line in _folded(message.content, whole)]
    return out


def program_text(code: str, span: tuple[int, int] | None) -> Text:
    """The program with line numbers; the judged call (``span``) underlined and its lines marked ``>``;
    control characters made visible (:func:`visible`)."""
    text = Text()
    lines = code.splitlines(keepends=True) or [""]
    width = len(str(len(lines)))
    offset = 0
    for number, line in enumerate(lines, 1):
        end = offset + len(line)
        marked = span is not None and span[0] < max(end, offset + 1) and span[1] > offset
        text.append(f"{'>' if marked else ' '} {number:>{width}} | ", style="bold yellow" if marked else "dim")
        body = line.rstrip("\n").removesuffix("\r")  # a CRLF line ends where its CR is
        if marked and span is not None:
            start, stop = max(span[0] - offset, 0), min(span[1] - offset, len(body))
            text.append(visible(body[:start], lines=True))
            text.append(visible(body[start:stop], lines=True), style="bold underline")
            text.append(visible(body[stop:], lines=True))
        else:
            text.append(visible(body, lines=True))
        text.append("\n")
        offset = end
    return text


EXCHANGE_BODY = 300
"""Characters of each body an exchange shows."""


def _inert(text: str, limit: int | None = None) -> str:
    """``text`` on one line, made inert (:func:`~wapii_core.base.text.visible`), cut to ``limit``."""
    shown = visible(text)
    return shown if limit is None or len(shown) <= limit else shown[:limit] + f"... ({len(text)} characters)"


def _body(message: Any) -> str:
    if message.body is not None:
        cut = " (cut)" if message.size > len(message.body.encode("utf-8", "surrogatepass")) else ""
        return _inert(message.body, EXCHANGE_BODY) + cut
    if message.body_base64 is not None:
        return f"({message.size} bytes, not UTF-8)"
    return "(no body)"


def exchange_lines(exchanges: list[Any]) -> Text:
    """Each exchange: the request line, its body, the answer's status, note and body."""
    text = Text()
    for number, exchange in enumerate(exchanges, 1):
        text.append(f"  {number}. {_inert(exchange.method)} {_inert(exchange.url)}\n", style="bold")
        text.append(f"       sent:     {_body(exchange.request)}\n")
        text.append(f"       answered: {exchange.status}", style="green" if exchange.status < 400 else "red")
        if exchange.note:
            text.append(f" ({_inert(exchange.note, 120)})", style="dim")
        text.append(f" {_body(exchange.response)}\n")
    return text



def judged_view(request: dict[str, Any] | None, mode: str | None = None,
                spellings: list[str] | None = None) -> dict[str, Any] | None:
    """A request as its diff shows it: what the judge compared, without what it keeps for its own use.

    In ``wire`` mode that is the request as it went on the wire (:func:`wapii_core.judge.wire.wire_view`:
    the URL as sent, header names spelled as ``spellings``, header and query values as the strings
    sent), the body left as JSON; otherwise the request less ``sent_params`` (the query as sent) and
    less ``sent_url`` where it is ``url``. The viewer shows the same (each record's ``diff_views``)."""
    if not isinstance(request, dict):
        return request
    if mode == "wire":
        from wapii_core.judge.wire import wire_view

        view = wire_view(request, spellings)
        fields = view.get("data")
        if isinstance(fields, dict) and fields and all(isinstance(v, tuple) and v[0] != "json" for v in fields.values()):
            view["data"] = {k: list(v[1]) if isinstance(v[1], tuple) else v[1] for k, v in fields.items()}  # form fields as sent
        elif "data" in request:
            view["data"] = request["data"]  # a JSON body is compared by JSON value: shown as JSON
        return view
    out = {k: v for k, v in request.items() if k != "sent_params"}
    if out.get("sent_url") == out.get("url"):
        out.pop("sent_url", None)
    return out


def diff_views(expected: dict[str, Any] | None, captured: dict[str, Any] | None,
               mode: str | None) -> tuple[Any, Any]:
    """The expected and the captured request as :func:`request_diff` compares them."""
    headers = expected.get("headers") if isinstance(expected, dict) else None
    spellings = list(headers) if isinstance(headers, dict) else []
    shown_expected, shown_captured = judged_view(expected, mode, spellings), judged_view(captured, mode, spellings)
    if mode == "wire" and isinstance(shown_expected, dict) and isinstance(shown_captured, dict):
        wanted, sent = shown_expected.get("params"), shown_captured.get("params")
        if isinstance(wanted, dict) and isinstance(sent, dict):  # one value sent for a listed parameter
            for key, value in sent.items():
                if isinstance(wanted.get(key), list) and isinstance(value, str):
                    sent[key] = [value]
    return shown_expected, shown_captured


def request_diff(expected: dict[str, Any] | None, captured: dict[str, Any] | None, mode: str | None = None) -> Text:
    """The expected request beside the captured one as a unified diff of their JSON (``-`` expected,
    ``+`` captured) as the judge compared them in ``mode`` (:func:`diff_views`), keys sorted so that
    only differences show; the whole expected request when nothing was captured."""
    def lines(request: dict[str, Any] | None) -> list[str]:
        shown = (json.dumps(request, indent=2, ensure_ascii=False, sort_keys=True, default=str)
                 if request is not None else "")
        return visible(shown, lines=True).splitlines()  # JSON escapes C0, not C1 nor bidi overrides

    if captured is not None:
        expected, captured = diff_views(expected, captured, mode)

    text = Text()
    if captured is None:
        text.append("(no request was captured; the expected request:)\n", style="dim")
        for line in lines(expected) or ["(not recorded)"]:
            text.append(f"  {line}\n")
        return text
    if expected is None:
        text.append("(the expected request is not recorded)\n", style="dim")
    diff = list(difflib.unified_diff(lines(expected), lines(captured), "expected", "captured", n=1000, lineterm=""))
    if not diff:
        text.append("(the captured request is the expected request)\n", style="green")
        return text
    for line in diff:
        if line.startswith(("---", "+++")):
            text.append(line + "\n", style="bold")
        elif line.startswith("@@"):
            continue
        elif line.startswith("-"):
            text.append(line + "\n", style="red")
        elif line.startswith("+"):
            text.append(line + "\n", style="green")
        else:
            text.append(line + "\n")
    return text


def verdict_lines(result: ResultLine) -> list[tuple[str, str, str]]:
    """``(field path, verdict, reason)`` for the URL, the method, the endpoint and every argument, in
    report order."""
    rows = [("url", result.url or "-", result.reasons.get("url", "")),
            ("method", result.method or "-", result.reasons.get("method", "")),
            ("endpoint", result.endpoint or "-", result.reasons.get("endpoint", ""))]
    for field, names in result.arguments.items():
        if "data" in result.reasons and field == "data":
            rows.append(("data", "-", result.reasons["data"]))
        for name, verdict in names.items():
            path = f"{field}.{name}"
            rows.append((path, verdict, result.reasons.get(path, "")))
    return rows


def _without_subject(reason: str, path: str, verdict: str) -> str:
    """``reason`` without what the verdict table's first columns already say (the path, the verdict)."""
    for prefix in (f"{path} {verdict}: ", f"{path} {verdict} ", f"{path} {verdict.replace('_', ' ')}: ", f"{path}: ",
                   f"{path} "):
        if reason.startswith(prefix):
            return reason[len(prefix):]
    return reason


def workflow_step_lines(result: ResultLine) -> list[tuple[str, str, str]]:
    """One ``(step, verdict, detail)`` per step of a judged workflow, in the order sent (the
    calls no request paired with last): the request's number, the expected call it pairs with."""
    rows = []
    assert result.workflow is not None
    for step in result.workflow.steps:
        sent = f"request {step.sent + 1}" if step.sent is not None else "not sent"
        expected = f"call {step.expected}" if step.expected is not None else "extra"
        verdict = step.verdict or "missing"
        why = "; ".join(f"{k}: {v}" for k, v in list(step.reasons.items())[:3])
        rows.append((f"{sent} / {expected}", verdict, f"{step.endpoint or 'no endpoint of the spec'}"
                                                       f"{' (' + why + ')' if why else ''}"))
    return rows


def workflow_parts(result: ResultLine) -> list[Any]:
    """The workflow's steps (each request's pairing and verdict) and its end state's differences."""
    w = result.workflow
    assert w is not None
    parts: list[Any] = [_heading(f"Steps ({w.correct_steps} of {w.expected_steps} expected calls sent and correct; "
                                 f"{w.extra} extra, {w.illegal} illegal)")]
    text = Text()
    rows = [(visible(a), visible(b), visible(c)) for a, b, c in workflow_step_lines(result)]
    width = max((len(a) for a, _, _ in rows), default=0)
    for step, verdict, detail in rows:
        text.append(f"  {step:<{width}}  ")
        text.append(f"{verdict:<9}", style="green" if verdict == "correct" else "red")
        text.append(f"  {detail}\n")
    parts.append(text if rows else Text("  (no step)"))
    parts.append(_heading("End state" + (" (matches the expected one)" if w.end_state and not w.damage else "")))
    lines = Text()
    for item in w.missing:
        lines.append("  missing  ", style="red")
        lines.append(f"{_inert(item, 400)}\n")
    for item in w.damage:
        lines.append("  damage   ", style="red")
        lines.append(f"{_inert(item, 400)}\n")
    if w.failed:
        lines.append(f"  not correct because: {visible(', '.join(w.failed))}\n", style="bold")
    parts.append(lines if lines.plain else Text("  every change the task asks for, and nothing else"))
    return parts


def render(story: SampleStory, whole_prompt: bool = False) -> Group:
    """The story as rich renderables, in the order ``wapii show`` prints them."""
    parts: list[Any] = []
    gen, result = story.generation, story.result
    title = Text(f"{visible(story.sample)} (draw {story.draw})", style="bold")
    title.append(f"  {visible(story.directory)}: {visible(story.run.label)}, {visible(story.run.mode)} mode",
                 style="dim")
    parts.append(title)
    if result is None:
        parts.append(Text("verdict: not judged yet (run the same `wapii run` again, or `wapii evaluate`)",
                          style="yellow"))
    else:
        line = Text("verdict: ")
        line.append(visible(result.verdict), style="bold green" if result.verdict == "correct" else "bold red")
        if result.workflow is not None and result.verdict != "nonexecutable":
            w = result.workflow
            line.append(visible(f"  workflow: {w.correct_steps}/{w.expected_steps} steps correct, end state "
                                f"{'matches' if w.end_state else 'differs'}"
                                f"{', damage' if w.damage else ''}"
                                f"{'; program error ' + result.error if result.error else ''}"))
        elif result.verdict == "nonexecutable":  # the detail is what a program printed: one visible line
            line.append(visible(f" ({result.error}{': ' + result.error_detail if result.error_detail else ''})"))
        else:
            line.append(visible(f"  endpoint {result.endpoint}, URL {result.url}, method {result.method}"))
            line.append(visible(f"; resolved to {result.resolved_endpoint or 'no endpoint of the spec'}"))
        parts.append(line)

    parts.append(_heading("Task"))
    parts.append(Text(f"  {visible(story.task, lines=True)}" if story.task else "  (the dataset is not available to show it)"))

    parts.append(_heading("Prompt"))
    parts.append(Text("\n".join(prompt_lines(gen.prompt if gen else None, whole_prompt))))

    parts.append(_heading("Program (the judged call marked >)"))
    if gen is None:
        parts.append(Text("  (not generated yet)"))
    elif gen.error is not None:
        parts.append(Text(f"  generation failed: {visible(gen.error)}", style="red"))
    else:
        span = result.call_span if result is not None else None
        parts.append(program_text(gen.code or "", span))
        if result is not None and result.call and span is None:
            parts.append(Text("judged call (not found as is in the program):", style="dim"))
            parts.append(Text(visible(result.call.rstrip("\n"), lines=True)))
        timings = []
        if gen.timings is not None:
            if gen.timings.queue_s is not None:
                timings.append(f"first token after {gen.timings.queue_s:.2f} s")
            if gen.timings.latency_s is not None:
                timings.append(f"generated in {gen.timings.latency_s:.2f} s")
            if gen.timings.tokens_in is not None or gen.timings.tokens_out is not None:
                timings.append(f"tokens in/out {gen.timings.tokens_in}/{gen.timings.tokens_out}")
        if result is not None and result.timings is not None and result.timings.execution_s is not None:
            timings.append(f"executed in {result.timings.execution_s:.3f} s")
        parts.append(Text(f"finish reason {visible(gen.finish_reason)}" + "".join(f"; {t}" for t in timings), style="dim"))

    if result is not None and result.exchanges is not None:
        parts.append(_heading(f"Exchanges ({len(result.exchanges)}: every request and its answer, in order)"))
        parts.append(exchange_lines(result.exchanges) if result.exchanges else Text("  (no request was answered)"))

    if result is not None and result.workflow is not None:
        parts.extend(workflow_parts(result))
        return Group(*parts)

    if result is not None:
        parts.append(_heading("Expected vs captured request"))
        parts.append(request_diff(result.expected_request, result.request, result.mode))
        if result.verdict != "nonexecutable":
            parts.append(_heading("Verdicts"))
            rows = [(visible(p), visible(v), visible(r)) for p, v, r in verdict_lines(result)]
            width = max(len(path) for path, _, _ in rows)
            text = Text()
            for path, verdict, reason in rows:
                text.append(f"  {path:<{width}}  ")
                told = _without_subject(reason, path, verdict)
                text.append(f"{verdict:<15}" if told else verdict, style="green" if verdict == "correct" else "red")
                text.append(f"  {told}\n" if told else "\n")
            parts.append(text)
    return Group(*parts)


def print_story(story: SampleStory, whole_prompt: bool = False, console: Console | None = None) -> None:
    """Print the story (colours only on a terminal)."""
    (console or Console(highlight=False)).print(render(story, whole_prompt), soft_wrap=True)
