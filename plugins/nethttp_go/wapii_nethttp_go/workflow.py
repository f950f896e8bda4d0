"""Writing the Go program that sends a workflow task's calls in order (the ``oracle`` backend's source
for ``--setup workflow``, docs/workflows.md).

The program is the workflow starter (the task as a comment, ``package main``, ``import "net/http"``)
and a ``main`` that sends each call with one helper, ``send(method, target, body, header)``, which
builds the request with ``http.NewRequest``, sends it with ``http.DefaultClient.Do``, sends it again
after a ``429``'s ``Retry-After`` seconds (``time.Sleep``; at most 5 times), ends the program with a
panic on any other status of 400 or more, and returns the answer's JSON body decoded into ``any``
(numbers kept as ``json.Number``, so an identifier is never rounded). Each call's URL, query,
headers and body are written by the one-call rendering (:func:`.render.request_parts`); a value
that holds ``{{N.path}}`` is spelled as code that reads the answer to call N: ``ref(answerN,
"path")`` walks the decoded body (keys, and digits as list indexes); a string that is exactly one
reference keeps the value's JSON type, so a JSON body holding one is built as a Go value
(``map[string]any``/``[]any``) and marshalled (``jsonText``); in any other string the value is
spliced as text (``text``: a string as is, anything else as its compact JSON), and a query or form
that holds one is encoded at run time (``form``). Only the helpers a program uses are written;
every import past ``net/http`` is added before it compiles (as goimports does).
"""

from __future__ import annotations

import json
from typing import Any

from wapii_core.api import Reference, Sample, Setup
from wapii_core.kits.wire import wire_text

from .golit import go_string
from .prompt import starter_code
from .render import Literal, request_parts

MAX_RETRIES = 5
_INT64 = 1 << 63


def answer_name(call: int) -> str:
    """The variable that holds the decoded answer to call ``call``."""
    return f"answer{call}"


class ReadingAnswers(Literal):
    """The spelling of call ``index``'s values: literals, except where a value reads an earlier answer.
    ``used`` collects the helpers the spelled code calls."""

    def __init__(self, index: int, used: set[str]) -> None:
        self.index, self.used = index, used

    def _read(self, ref: Reference) -> str:
        if ref.setup:
            raise ValueError(f"call {self.index}: {ref} names a setup call's answer, which the program "
                             "cannot read: replace it with its value before rendering")
        if ref.call >= self.index:
            raise ValueError(f"call {self.index}: {ref} names the answer to call {ref.call}, "
                             "which is not sent before it")
        self.used.add("ref")
        return f"ref({answer_name(ref.call)}, {go_string(ref.path)})"

    def text(self, value: str) -> str:
        pieces = []
        for part in Reference.parts(value):
            if isinstance(part, Reference):
                self.used.add("text")
                pieces.append(f"text({self._read(part)})")
            else:
                pieces.append(go_string(part))
        return " + ".join(pieces) or go_string("")

    def encoded(self, pairs: list[tuple[str, str]], prefix: str = "") -> str:
        if not Reference.all_in([value for _, value in pairs]):
            return super().encoded(pairs, prefix)
        self.used.add("form")
        encoded = "form(" + ", ".join(f"{go_string(name)}, {self.text(value)}" for name, value in pairs) + ")"
        return f"{go_string(prefix)} + {encoded}" if prefix else encoded

    def json(self, data: Any) -> str:
        if not Reference.all_in(data):
            return super().json(data)
        self.used.add("jsonText")
        return f"jsonText({self.value(data)})"

    def value(self, data: Any) -> str:
        """``data`` as a Go expression of type ``any`` that marshals to it (references read at run time)."""
        if isinstance(data, dict):
            return "map[string]any{" + ", ".join(f"{go_string(str(k))}: {self.value(v)}" for k, v in data.items()) + "}"
        if isinstance(data, list):
            return "[]any{" + ", ".join(self.value(item) for item in data) + "}"
        if isinstance(data, str):
            whole = Reference.whole(data)
            return self._read(whole) if whole else self.text(data)
        if isinstance(data, bool):
            return "true" if data else "false"
        if data is None:
            return "nil"
        if isinstance(data, int) and -_INT64 <= data < _INT64:
            return str(data)
        return f"json.Number({go_string(json.dumps(data))})"


def _statement(call: dict[str, Any], index: int, kept: bool, used: set[str]) -> str:
    spell = ReadingAnswers(index, used)
    method, target, body, headers = request_parts(call, spell)
    header = ", ".join(f"{go_string(str(name))}: {{{spell.text(wire_text(value))}}}"
                       for name, value in headers.items() if value is not None)
    sent = f"send({method}, {target}, {body if body is not None else go_string('')}, http.Header{{{header}}})"
    return f"\t{answer_name(index)} := {sent}\n" if kept else f"\t{sent}\n"


def render_workflow_program(calls: list[dict[str, Any]], sample: Sample) -> str:
    """The whole program (workflow starter + completion) that sends ``calls`` in order, reading each
    ``{{N.path}}`` from the answer to call N; a ``ValueError`` for a reference it cannot read (a
    setup call's, or one to a call not sent before)."""
    referenced = {ref.call for call in calls for ref in Reference.all_in(call)}
    used: set[str] = set()
    main = "".join(_statement(call, i, i in referenced, used) for i, call in enumerate(calls))
    if "text" in used:
        used.add("jsonText")
    helpers = "".join("\n" + source for name, source in HELPERS if name == "send" or name in used)
    return starter_code(sample, Setup.workflow) + "\nfunc main() {\n" + main + "}\n" + helpers


HELPERS: tuple[tuple[str, str], ...] = (
    ("send", f"""// send sends a request and returns its answer's JSON body (nil when it has none): after a 429 it
// waits the answer's Retry-After seconds and sends it again (at most {MAX_RETRIES} times); any other
// status of 400 or more ends the program.
func send(method, target, body string, header http.Header) any {{
	for retries := 0; ; retries++ {{
		req, err := http.NewRequest(method, target, strings.NewReader(body))
		if err != nil {{
			panic(err)
		}}
		req.Header = header
		resp, err := http.DefaultClient.Do(req)
		if err != nil {{
			panic(err)
		}}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {{
			panic(err)
		}}
		if resp.StatusCode == http.StatusTooManyRequests && retries < {MAX_RETRIES} {{
			seconds, err := strconv.Atoi(resp.Header.Get("Retry-After"))
			if err != nil {{
				seconds = 1
			}}
			time.Sleep(time.Duration(seconds) * time.Second)
			continue
		}}
		if resp.StatusCode >= 400 {{
			panic(fmt.Sprintf("%s %s answered %s: %s", method, target, resp.Status, data))
		}}
		var answer any
		decoder := json.NewDecoder(bytes.NewReader(data))
		decoder.UseNumber()
		if decoder.Decode(&answer) != nil {{
			return nil
		}}
		return answer
	}}
}}
"""),
    ("ref", """// ref is the value at path (dot-separated keys, and list indexes) in a decoded answer.
func ref(answer any, path string) any {
	value := answer
	for _, key := range strings.Split(path, ".") {
		switch node := value.(type) {
		case []any:
			index, err := strconv.Atoi(key)
			if err != nil || index < 0 || index >= len(node) {
				panic(fmt.Sprintf("the answer has no %s: no item %s", path, key))
			}
			value = node[index]
		case map[string]any:
			item, ok := node[key]
			if !ok {
				panic(fmt.Sprintf("the answer has no %s: no %q", path, key))
			}
			value = item
		default:
			panic(fmt.Sprintf("the answer has no %s: %q is in no object or list", path, key))
		}
	}
	return value
}
"""),
    ("text", """// text is a value as it reads inside a longer string: a string as is, anything else as its JSON.
func text(value any) string {
	if s, ok := value.(string); ok {
		return s
	}
	return jsonText(value)
}
"""),
    ("jsonText", """// jsonText is a value's compact JSON text.
func jsonText(value any) string {
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(value); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(out.String(), "\\n")
}
"""),
    ("form", """// form encodes name, value pairs as a query or a form body: name=value&...
func form(pairs ...string) string {
	encoded := make([]string, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		encoded = append(encoded, url.QueryEscape(pairs[i])+"="+url.QueryEscape(pairs[i+1]))
	}
	return strings.Join(encoded, "&")
}
"""),
)
"""The program's helpers (name, Go source), in the order they are written after ``main``."""
