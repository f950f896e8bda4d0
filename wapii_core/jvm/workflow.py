"""Multi-step workflow tasks (docs/workflows.md) for every Java adapter: the prompt, the extraction
of a whole program and the oracle's program, around the pieces of :class:`~.program.JavaProgram`
that are its library's own.

- The starter is the task as a comment and the library's imports with ``java.util.*``; the model
  writes the class ``Main`` and everything in it.
- :func:`extract_program`: the whole program (cut at a closing code fence, and before prose after
  its last class), as a compilation unit
  opening with :data:`UNIT_PACKAGE` (:func:`~.javasource.program_source` gives it the runner's
  package and installs wapii's launcher first); its own ``package`` is dropped and a main class of
  another name is renamed ``Main``. A program without a class is run as ``main``'s statements.
- :func:`render_workflow`: each call sent in order by the library's one-call builder code
  (:attr:`~.program.JavaProgram.builder_tail`, the same text as :meth:`~.program.JavaProgram.render`
  writes), in a loop that sends it again after a ``429``'s ``Retry-After`` seconds (at most 5 times)
  and ends the program on any other status >= 400. A ``{{N.path}}`` reference is read at run time
  from answer N, parsed by a small JSON reader the program carries (:data:`HELPERS`: the JDK has none):
  typed (JSON) where a string of a JSON body is exactly one reference, else spliced as text,
  percent-encoded in the URL, the query and a form (a string as it is, anything else as its JSON
  text: a reference to a list or null in a query or a form is sent as that text, not as repeated or
  left-out fields).
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import TYPE_CHECKING, Any

from wapii_core.base.model import Extraction, Prompt, Sample
from wapii_core.base.references import Reference
from wapii_core.base.protocols import Dataset
from wapii_core.judge.wire_bodies import FORM_TYPE, MULTIPART_TYPE, media_type
from wapii_core.jvm.javasource import (Truncated, _call_index, _cut_fence, _tokens_before_truncation, java_string,
                                       tokens, top_level_types)
from wapii_core.jvm.render import PATH_SAFE, java_encoded_url, java_query_string

if TYPE_CHECKING:
    from wapii_core.jvm.program import JavaProgram

UNIT_PACKAGE = "package wapii_program;"
"""What an extracted whole program opens with (on its first line, so its line numbers stay): the mark
of a compilation unit, whose package the runner replaces (an extracted call never opens with one)."""
WORKFLOW_IMPORTS = "import java.util.*;\n"

TEMPLATE = """\
Below is the start of a Java program that uses {library} to talk to the {api} API. The comment at its top says what the program must do: several requests, one after another.

Guidelines:
- Write the whole program: a class `Main` whose `public static void main(String[] args) throws Exception` sends the requests the task needs, in order, each with `{syntax}`; send no request the task does not ask for.
- Every answer is JSON. Where a request needs a value that an earlier answer returned (the identifier of what was found or created), read it from that answer at run time; never make one up. The JDK has no JSON parser and no JSON library is available: parse what you need yourself.
- An answer with status 429 carries a `Retry-After` header (seconds): wait that long and send the same request again. Any other status of 400 or more is a failure: end the program with an exception.
- For credentials, write `<token>` where a bearer or OAuth token goes and `<key>` where an API key goes.
{body}

Write the program:

```java
"""

HELPERS = r"""
    // Sends a request again after a 429's Retry-After seconds (at most 5 times); any other status >= 400 ends the program.
    static boolean again(int status, String retryAfter, int attempt, String answer) throws InterruptedException {
        if (status == 429 && attempt < 5) {
            Thread.sleep(1000L * Long.parseLong(retryAfter == null ? "1" : retryAfter.trim()));
            return true;
        }
        if (status >= 400) throw new IllegalStateException("HTTP " + status + ": " + answer);
        return false;
    }

    // Percent-encodes UTF-8 text, leaving letters, digits, -._~ and the characters in `safe`.
    static String enc(String text, String safe) {
        StringBuilder out = new StringBuilder();
        for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            boolean plain = c < 128 && (Character.isLetterOrDigit(c) || "-._~".indexOf(c) >= 0 || safe.indexOf(c) >= 0);
            out.append(plain ? String.valueOf(c) : String.format("%%%02X", b & 0xff));
        }
        return out.toString();
    }

    // A small JSON reader and writer (the JDK has none): Map, List, String, Long or Double, Boolean, null.
    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static Object parse(String text) {
            Json p = new Json(text);
            Object value = p.value();
            if (p.skip() < text.length()) throw p.error();
            return value;
        }

        // The value at a dot-separated path; a segment of digits indexes a list.
        static Object at(Object value, String path) {
            for (String key : path.split("\\.")) {
                if (value instanceof List<?> list && key.matches("[0-9]+") && Integer.parseInt(key) < list.size()) {
                    value = list.get(Integer.parseInt(key));
                } else if (value instanceof Map<?, ?> map && map.containsKey(key)) {
                    value = map.get(key);
                } else {
                    throw new IllegalStateException("the answer has no " + path);
                }
            }
            return value;
        }

        // A value as text: a string as it is, anything else as its JSON.
        static String text(Object value) {
            return value instanceof String text ? text : write(value);
        }

        static String write(Object value) {
            if (value instanceof String text) return "\"" + esc(text) + "\"";
            StringJoiner out;
            if (value instanceof Map<?, ?> map) {
                out = new StringJoiner(", ", "{", "}");
                map.forEach((k, v) -> out.add(write(k) + ": " + write(v)));
            } else if (value instanceof List<?> list) {
                out = new StringJoiner(", ", "[", "]");
                list.forEach(v -> out.add(write(v)));
            } else {
                return String.valueOf(value);
            }
            return out.toString();
        }

        // A string's JSON escapes, without the quotes.
        static String esc(String text) {
            StringBuilder out = new StringBuilder();
            for (char c : text.toCharArray()) {
                int k = "\"\\\b\f\n\r\t".indexOf(c);
                if (k >= 0) out.append('\\').append("\"\\bfnrt".charAt(k));
                else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                else out.append(c);
            }
            return out.toString();
        }

        private int skip() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
            return i;
        }

        private IllegalArgumentException error() {
            return new IllegalArgumentException("not JSON at offset " + i);
        }

        private char peek() {
            if (skip() >= s.length()) throw error();
            return s.charAt(i);
        }

        private boolean more(char close) {
            char c = peek();
            i++;
            if (c != ',' && c != close) throw error();
            return c == ',';
        }

        private Object value() {
            char c = peek();
            if (c == '{') {
                Map<String, Object> map = new LinkedHashMap<>();
                i++;
                if (peek() == '}') return skipTo(map);
                do {
                    String key = string();
                    if (peek() != ':') throw error();
                    i++;
                    map.put(key, value());
                } while (more('}'));
                return map;
            }
            if (c == '[') {
                List<Object> list = new ArrayList<>();
                i++;
                if (peek() == ']') return skipTo(list);
                do list.add(value()); while (more(']'));
                return list;
            }
            if (c == '"') return string();
            for (String word : new String[] {"true", "false", "null"}) {
                if (s.startsWith(word, i)) {
                    i += word.length();
                    return word.equals("null") ? null : Boolean.valueOf(word.equals("true"));
                }
            }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            String number = s.substring(start, i);
            if (number.matches("-?(0|[1-9][0-9]{0,17})")) return Long.valueOf(number);
            if (!number.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) throw error();
            return Double.valueOf(number);
        }

        private Object skipTo(Object empty) {
            i++;
            return empty;
        }

        private String string() {
            if (peek() != '"') throw error();
            StringBuilder out = new StringBuilder();
            for (i++; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"') {
                    i++;
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                } else if (++i < s.length() && s.charAt(i) == 'u' && i + 4 < s.length()) {
                    out.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                    i += 4;
                } else if (i < s.length() && "\"\\/bfnrt".indexOf(s.charAt(i)) >= 0) {
                    out.append("\"\\/\b\f\n\r\t".charAt("\"\\/bfnrt".indexOf(s.charAt(i))));
                } else {
                    throw error();
                }
            }
            throw error();
        }
    }
"""
"""The members the oracle's ``Main`` carries besides ``main``: the retry rule, percent-encoding and
the JSON reader (a recursive descent into Map/List/String/Long/Double/Boolean/null, a path walk,
and JSON text for a typed reference)."""


# -- the prompt ------------------------------------------------------------------------------------
def workflow_starter(program: "JavaProgram", sample: Sample) -> str:
    """The task as a comment, then the library's imports and ``java.util.*``: the model writes the rest."""
    comment = "".join(f"// {line}\n" for line in " ".join(sample.task.split()).splitlines() or [""])
    return comment + program.imports + WORKFLOW_IMPORTS


def _library_words(template: str) -> tuple[str, str]:
    """The library as the one-call template names it (``OkHttp 3 (`okhttp3.OkHttpClient`)``) and its
    last guideline (how the library sends a body), which the workflow prompt repeats."""
    found = re.search(r"uses (.+?) to talk to", template)
    guidelines = [line for line in template.splitlines() if line.startswith("- ")]
    return (found.group(1) if found else "the library"), (guidelines[-1] if guidelines else "")


def workflow_prompt(program: "JavaProgram", sample: Sample, dataset: Dataset) -> Prompt:
    """The workflow prompt: instructions for a whole program of several requests, then the starter.
    Names no request of the task (only the task's own words are in it)."""
    template = resources.files(program.package).joinpath("prompt_template.md").read_text(encoding="utf-8")
    library, body = _library_words(template)
    instructions = TEMPLATE.format(library=library, api=dataset.display_names.get(sample.api, sample.api),
                                   syntax=program.syntax, body=body)
    starter = workflow_starter(program, sample)
    return Prompt(text=instructions + starter, starter=starter, instructions=instructions, call_start=program.call_start)


# -- extraction ------------------------------------------------------------------------------------
def _has_main(toks: list[Any], name_at: int) -> bool:
    """Whether the type whose name is the token ``name_at`` declares a method ``main`` in its body."""
    depth, k = 0, name_at
    while k < len(toks) and toks[k].text != "{":
        k += 1
    for j in range(k, len(toks)):
        text = toks[j].text
        if text in ("{", "(", "["):
            depth += 1
        elif text in ("}", ")", "]"):
            depth -= 1
            if depth == 0:
                return False
        elif depth == 1 and text == "main" and j + 1 < len(toks) and toks[j + 1].text == "(":
            return True
    return False


def _blank(code: str, start: int, end: int) -> str:
    """``code`` with ``[start, end)`` turned into spaces (line breaks kept)."""
    return code[:start] + "".join(c if c == "\n" else " " for c in code[start:end]) + code[end:]


def _type_end(toks: list[Any], name_at: int) -> int | None:
    """The token that closes the body of the type whose name is the token ``name_at`` (None: unclosed)."""
    depth, k = 0, name_at
    while k < len(toks) and toks[k].text != "{":
        k += 1
    for j in range(k, len(toks)):
        depth += (toks[j].text == "{") - (toks[j].text == "}")
        if depth == 0 and toks[j].text == "}":
            return j
    return None


def _cut_prose(code: str) -> str:
    """``code`` up to the end of its last top-level type when only prose follows it (text without a
    brace: no Java after a compilation unit's types), else as it is."""
    try:
        toks = tokens(code)
    except ValueError:
        toks = _tokens_before_truncation(code)
    types = top_level_types(toks)
    end = _type_end(toks, types[-1][0]) if types else None
    if end is None:
        return code
    rest = code[toks[end].end:]
    return code[:toks[end].end] + "\n" if rest.strip() and "{" not in rest and "}" not in rest else code


def extract_program(code: str, methods: tuple[str, ...]) -> Extraction:
    """The whole program in the form the runner compiles (see the module docstring), cut at a closing
    code fence and before prose after its last class: ``incomplete_request`` when it ends inside a
    comment, a literal or a block; ``no_request`` when it holds no call of the library's request
    ``methods``."""
    code = _cut_prose(_cut_fence(code))
    span = (0, len(code))
    try:
        toks = tokens(code)
    except Truncated:
        toks = _tokens_before_truncation(code)
        return Extraction(error="incomplete_request" if _call_index(toks, methods) is not None
                          or any(f".{m}(" in code for m in methods) else "no_request")
    except ValueError:
        return Extraction(error="no_request")
    if _call_index(toks, methods) is None:
        return Extraction(error="no_request")
    depth = 0
    for tok in toks:
        depth += tok.text in ("{", "(", "[")
        depth -= tok.text in ("}", ")", "]")
    if depth > 0:
        return Extraction(error="incomplete_request")
    types = top_level_types(toks)
    if not types:
        return Extraction(call=code.strip("\n") + "\n", span=span)
    names = {name for _, name in types}
    if "Main" not in names:
        runnable = [name for at, name in types if _has_main(toks, at)]
        if runnable:
            for tok in reversed(toks):
                if tok.kind == "ident" and tok.text == runnable[0]:
                    code = code[:tok.start] + "Main" + code[tok.end:]
            toks = tokens(code)
    if toks and toks[0].text == "package":
        end = next((k for k, tok in enumerate(toks) if tok.text == ";"), 0)
        code = _blank(code, toks[0].start, toks[end].end)
    return Extraction(call=f"{UNIT_PACKAGE} {code}".rstrip() + "\n", span=span)


# -- the oracle's program --------------------------------------------------------------------------
class _Marks:
    """The references of a workflow's calls, each replaced by a placeholder word (letters and digits:
    every text the one-call rendering makes keeps it as is) whose Java expression is known."""

    def __init__(self, calls: list[dict[str, Any]]) -> None:
        text = json.dumps(calls)
        self.word = "WAPIIREF"
        while self.word in text:
            self.word += "Z"
        self.expressions: dict[str, tuple[str, bool]] = {}  # placeholder -> (Java expression, replaces a JSON string)
        self.answers: set[int] = set()
        self.pattern = re.compile(re.escape(self.word) + r"\d+X")

    def _mark(self, index: int, path: str, limit: int, expression: Any, typed: bool) -> str:
        if index >= limit:
            raise ValueError(f"call {limit} refers to the answer of call {index}, which is not sent before it")
        self.answers.add(index)
        value = f"Json.at(r{index}, {java_string(path)})"
        mark = f"{self.word}{len(self.expressions)}X"
        self.expressions[mark] = (expression(value), typed)
        return mark

    def replace(self, value: Any, limit: int, context: str) -> Any:
        """``value`` with each reference's placeholder, where ``context`` (``url``, ``query``,
        ``header``, ``form``, ``raw``, ``json``) says how its text is written."""
        if isinstance(value, dict):
            return {key: self.replace(item, limit, context) for key, item in value.items()}
        if isinstance(value, list):
            return [self.replace(item, limit, context) for item in value]
        if not isinstance(value, str) or "{{" not in value:
            return value
        whole = Reference.whole(value)
        if whole is not None and context == "json":
            return self._mark(*self._target(whole), limit=limit, expression=lambda v: f"Json.write({v})", typed=True)
        wrap = {"url": lambda t: f"enc({t}, {java_string(PATH_SAFE)})", "query": lambda t: f'enc({t}, "")',
                "form": lambda t: f'enc({t}, "")', "json": lambda t: f"Json.esc({t})"}.get(context, lambda t: t)
        return "".join(part if isinstance(part, str) else
                       self._mark(*self._target(part), limit=limit, expression=lambda v: wrap(f"Json.text({v})"),
                                  typed=False)
                       for part in Reference.parts(value))

    @staticmethod
    def _target(ref: Reference) -> tuple[int, str]:
        if ref.setup:
            raise ValueError(f"{ref} refers to a setup answer; render_workflow takes calls whose setup "
                             "references are resolved")
        return ref.call, ref.path

    def java(self, source: str) -> str:
        """``source`` with every string literal that holds placeholders turned into the concatenation
        of its text and the placeholders' expressions."""
        out, last = [], 0
        for tok in tokens(source):
            if tok.kind != "string" or not self.pattern.search(tok.text):
                continue
            out.append(source[last:tok.start])
            out.append(self._literal(tok.text[1:-1]))
            last = tok.end
        return "".join(out) + source[last:]

    def _literal(self, inner: str) -> str:
        pieces = self.pattern.split(inner)
        marks = self.pattern.findall(inner)
        parts: list[str] = []
        for k, mark in enumerate(marks):
            expression, typed = self.expressions[mark]
            if typed:  # the JSON string "<mark>" becomes the value's JSON
                assert pieces[k].endswith('\\"') and pieces[k + 1].startswith('\\"'), inner
                pieces[k], pieces[k + 1] = pieces[k][:-2], pieces[k + 1][2:]
            parts.extend([f'"{pieces[k]}"' if pieces[k] else "", expression])
        parts.append(f'"{pieces[-1]}"' if pieces[-1] else "")
        parts = [part for part in parts if part]
        return parts[0] if len(parts) == 1 else "(" + " + ".join(parts) + ")"


def _data_context(config: dict[str, Any]) -> str:
    """How the body's strings are written (:func:`~.render.java_body_text`'s cases)."""
    headers = config.get("headers") or {}
    content_type = next((str(v) for k, v in headers.items() if str(k).lower() == "content-type"), None)
    media = media_type(content_type)
    data = config.get("data")
    if isinstance(data, dict) and media == FORM_TYPE:
        return "form"
    if isinstance(data, dict) and media == MULTIPART_TYPE:
        return "raw"
    if content_type is not None and isinstance(data, str) and media != "application/json" and not media.endswith("+json"):
        return "raw"
    return "json"


def _marked(config: dict[str, Any], marks: _Marks, limit: int) -> dict[str, Any]:
    out = dict(config)
    out["url"] = marks.replace(config["url"], limit, "url")
    for key, context in (("params", "query"), ("headers", "header"), ("data", _data_context(config))):
        if config.get(key) is not None:
            out[key] = marks.replace(config[key], limit, context)
    return out


def render_workflow(program: "JavaProgram", calls: list[dict[str, Any]], sample: Sample) -> str:
    """The oracle's whole program for ``calls`` (see the module docstring), starting with the workflow
    starter. ``ValueError`` for a call the library cannot send or a reference to a later call."""
    if not (program.response_type and program.status and program.retry_after and program.answer_text):
        raise ValueError(f"{program.package} names no way to read an answer (JavaProgram.response_type, status, "
                         "retry_after, answer_text): it renders no workflow")
    marks = _Marks(calls)
    lines: list[str] = []
    for n, config in enumerate(calls):
        sent = _marked(config, marks, n)
        url = java_string(java_encoded_url(sent["url"]) + java_query_string(sent.get("params")))
        request = program.call + program.url_call.format(url=url) + program.builder_tail(sent)
        lines.append(f"        String a{n};\n"
                     f"        for (int attempt = 0; ; attempt++) {{\n"
                     f"            {program.response_type} response = {marks.java(request)}\n"
                     f"            a{n} = {program.answer_text};\n"
                     f"            if (!again({program.status}, {program.retry_after}, attempt, a{n})) break;\n"
                     f"        }}\n")
    for n in sorted(marks.answers):  # parse each answer that a later call reads, right after it
        lines[n] += f"        Object r{n} = Json.parse(a{n});\n"
    return (workflow_starter(program, sample) + program.open + "".join(lines) + "    }\n"
            + HELPERS + "}\n")
