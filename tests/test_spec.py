"""The OpenAPI index: matching (reference and strict), path parameters, legality, caching, speed."""

from __future__ import annotations

import functools
import json
import re
import textwrap
from pathlib import Path

import pytest
import yaml

from support import LARGE_SPEC, WAPIIBENCH, same
import wapii_core.openapi.index as spec_module
import wapii_core.openapi.operations as spec_reader
from wapii_core.openapi import yamlload
from wapii_core.base.errors import InputError
from wapii_core.base.paths import cache_dir
from wapii_core.openapi.index import SpecIndex

SPECS = WAPIIBENCH / "specs"
APIS = ("asana", "google_calendar_v3", "google_sheet_v4", "slack")
needs_specs = pytest.mark.skipif(not (SPECS / "slack.yaml").exists(), reason="needs ../shared/wapiibench")


def load(api: str) -> SpecIndex:
    return SpecIndex.load(SPECS / f"{api}.yaml")


def write_spec(tmp_path: Path, body: str, name: str = "api.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


TOY = """\
    openapi: 3.0.3
    info: {title: toy, version: "1"}
    servers: [{url: "https://toy.example/v1"}, {url: "https://other.example"}]
    components:
      securitySchemes:
        key: {type: apiKey, name: api_key, in: query}
        session: {type: apiKey, name: sid, in: cookie}
      parameters:
        Limit: {name: limit, in: query, schema: {type: integer}}
      schemas:
        Base:
          type: object
          properties: {name: {type: string}}
        Item:
          allOf:
            - $ref: '#/components/schemas/Base'
            - type: object
              properties: {size: {type: integer}}
    paths:
      /items:
        get:
          parameters:
            - $ref: '#/components/parameters/Limit'
            - {name: z, in: header}
            - {name: z, in: query}
        post:
          requestBody:
            content:
              application/json:
                schema: {$ref: '#/components/schemas/Item'}
              application/xml:
                schema: {type: object, properties: {xml_only: {type: string}}}
      /items/{item_id}:
        parameters:
          - {name: item_id, in: path, required: true}
          - {name: x, in: header}
        get:
          parameters:
            - {name: x, in: query}
            - {name: y, in: header}
        delete: {}
      /items/{item_id}/parts/{part}:
        get:
          parameters:
            - {name: item_id, in: path, required: true}
      /v.{n}:
        get:
          parameters: [{name: n, in: path, required: true}]
"""


# ---------------------------------------------------------------- matching (real specs)

@needs_specs
def test_slack_dot_matches_any_character_in_reference_mode_only() -> None:
    slack = load("slack")
    for url in ("https://slack.com/api/chat_postMessage", "https://slack.com/api/chat/postMessage"):
        assert slack.candidates(url) == ["/chat.postMessage"]
        assert slack.candidates(url, strict=True) == []
    assert slack.candidates("https://slack.com/api/chat.postMessage", strict=True) == ["/chat.postMessage"]


@needs_specs
def test_suffix_template_wins_over_bare_parameter() -> None:
    sheets = load("google_sheet_v4")
    url = "https://sheets.googleapis.com/v4/spreadsheets/abc123:batchUpdate"
    found = sheets.candidates(url)
    assert found[0] == "/v4/spreadsheets/{spreadsheetId}:batchUpdate"
    assert "/v4/spreadsheets/{spreadsheetId}" in found[1:]
    assert sheets.path_params(url) == {"spreadsheetId": "abc123"}


@needs_specs
def test_fewer_parameters_first_then_longer_template() -> None:
    calendar = load("google_calendar_v3")
    url = "https://www.googleapis.com/calendar/v3/calendars/primary/events/import"
    assert calendar.candidates(url) == ["/calendars/{calendarId}/events/import", "/calendars/{calendarId}/events/{eventId}"]
    assert calendar.path_params(url) == {"calendarId": "primary"}
    other = "https://www.googleapis.com/calendar/v3/calendars/primary/events/e1"
    assert calendar.path_params(other) == {"calendarId": "primary", "eventId": "e1"}


@pytest.mark.parametrize("strict", [False, True])
def test_shadowing_lists_every_better_candidate_a_url_of_the_template_also_matches(tmp_path: Path, strict: bool) -> None:
    """The promise a grammar relies on to offer only the arguments of the path the judge resolves a URL
    to: whenever a URL matches several templates, every one ranked before another is in its shadowing."""
    indexes = [SpecIndex.load(write_spec(tmp_path, REGEX_TEMPLATES, "rx.yaml")), SpecIndex.load(write_spec(tmp_path, TOY))]
    urls = ["https://rx.example/aab/1", "https://rx.example/cd/e", "https://rx.example/fg/7.json",
            "https://toy.example/v1/vX3", "https://toy.example/v1/v.3", "https://toy.example/v1/items/7/parts/w"]
    if (SPECS / "slack.yaml").exists():
        from wapii_core.datasets.loader import load_dataset_dir

        indexes += [load(api) for api in APIS]
        urls += [s.config["url"] for s in load_dataset_dir(WAPIIBENCH, "wapiibench").samples]
        sheets = load("google_sheet_v4")
        assert sheets.shadowing("/v4/spreadsheets/{spreadsheetId}/values/{range}")[:2] == [
            "/v4/spreadsheets/{spreadsheetId}/values/{range}:append", "/v4/spreadsheets/{spreadsheetId}/values/{range}:clear"]
        assert sheets.shadowing("/v4/spreadsheets/{spreadsheetId}:getByDataFilter") == []
        assert load("slack").shadowing("/chat.postMessage") == []  # exact for a template without placeholders
    shared = 0
    for index in indexes:
        for url in {u for base in urls for u in perturbed(base)}:
            found = index.candidates(url, strict=strict)
            for at, template in enumerate(found):
                assert set(found[:at]) <= set(index.shadowing(template)), (index.path.name, url, template)
            shared += len(found) > 1
    assert shared >= 5


@needs_specs
def test_server_prefix_and_no_match() -> None:
    asana = load("asana")
    assert asana.server == "https://app.asana.com/api/1.0"
    assert asana.candidates("https://app.asana.com/api/1.0/tasks/42") == ["/tasks/{task_gid}"]
    assert asana.candidates("https://example.com/api/1.0/tasks/42") == []  # the server is not stripped
    assert asana.candidates("https://app.asana.com/api/1.0/tasks/42?opt_pretty=true") == []  # '?' ends a value
    assert asana.candidates("https://app.asana.com/api/1.0/nonsense") == []
    assert asana.path_params("https://app.asana.com/api/1.0/nonsense") == {}
    assert asana.candidates(None) == []  # type: ignore[arg-type]


@needs_specs
def test_path_level_parameters_name_path_params() -> None:
    asana = load("asana")  # declares {task_gid} on the path item, not on the operations
    assert asana.path_params("https://app.asana.com/api/1.0/tasks/1234") == {"task_gid": "1234"}
    assert asana.methods("/tasks/{task_gid}") == {"get", "put", "delete"}
    assert asana.has_method("/tasks/{task_gid}", "put")
    assert not asana.has_method("/tasks/{task_gid}", "post")
    assert not asana.has_method("/no/such/path", "get")
    assert asana.methods("/no/such/path") == set()


@needs_specs
def test_legal_arguments_on_real_specs() -> None:
    asana, slack, calendar = load("asana"), load("slack"), load("google_calendar_v3")
    task = "/tasks/{task_gid}"
    assert asana.is_legal("Accept", "headers", "get", task)
    assert not asana.is_legal("Content-Type", "headers", "get", task)
    assert asana.is_legal("Content-Type", "headers", "put", task)
    assert asana.is_legal("Authorization", "headers", "get", task)  # http bearer / oauth2
    assert not asana.is_legal("authorization", "headers", "get", task)  # names are case-sensitive
    assert not asana.is_legal("Authorization", "params", "get", task)
    assert asana.is_legal("opt_fields", "params", "get", task)  # a path-level query parameter
    assert not asana.is_legal("opt_fields", "headers", "get", task)
    assert asana.is_legal("task_gid", "path_params", "delete", task)
    assert asana.is_legal("data", "data", "put", task)
    assert not asana.is_legal("data", "data", "get", task)  # GET has no request body
    assert not asana.is_legal("name", "data", "put", task)  # only top-level body properties count
    assert slack.is_legal("token", "headers", "post", "/chat.postMessage")
    assert slack.is_legal("channel", "data", "post", "/chat.postMessage")
    assert not slack.is_legal("channel", "params", "post", "/chat.postMessage")
    assert calendar.is_legal("sendUpdates", "params", "post", "/calendars/{calendarId}/events")
    assert not calendar.is_legal("sendUpdates", "params", "post", None)


# ---------------------------------------------------------------- semantics on a constructed spec

def test_constructed_spec_resolution_and_first_parameter_rule(tmp_path: Path) -> None:
    index = SpecIndex.load(write_spec(tmp_path, TOY))
    assert index.server == "https://toy.example/v1"
    assert index.is_legal("limit", "params", "get", "/items")  # via a $ref parameter
    # apiKey credentials in their location, for any endpoint; a cookie key is never legal
    assert index.is_legal("api_key", "params", "delete", "/items/{item_id}")
    assert not index.is_legal("api_key", "headers", "get", "/items")
    assert not index.is_legal("sid", "headers", "get", "/items")
    assert not index.is_legal("Authorization", "headers", "get", "/items")  # no http/oauth2 scheme here
    # only the first parameter of a name counts: z is a header first, so z in params is illegal
    assert index.is_legal("z", "headers", "get", "/items")
    assert not index.is_legal("z", "params", "get", "/items")
    # path-level x is a header, the operation's own x is a query parameter: both count
    assert index.is_legal("x", "headers", "get", "/items/{item_id}")
    assert index.is_legal("x", "params", "get", "/items/{item_id}")
    assert index.is_legal("y", "headers", "get", "/items/{item_id}")
    assert not index.is_legal("y", "headers", "delete", "/items/{item_id}")  # y belongs to GET only
    assert index.is_legal("item_id", "path_params", "delete", "/items/{item_id}")
    # request body: first media type only, allOf parts merged through $refs
    assert index.is_legal("name", "data", "post", "/items")
    assert index.is_legal("size", "data", "post", "/items")
    assert not index.is_legal("xml_only", "data", "post", "/items")
    assert not index.is_legal("name", "data", "get", "/items")


def test_constructed_spec_path_params_quirks(tmp_path: Path) -> None:
    index = SpecIndex.load(write_spec(tmp_path, TOY))
    url = "https://toy.example/v1/items/7/parts/wheel"
    assert index.candidates(url) == ["/items/{item_id}/parts/{part}"]
    # {part} is declared by no operation, so only item_id is captured
    assert index.path_params(url) == {"item_id": "7"}
    # the '.' of /v.{n} is a regex wildcard in reference mode only
    assert index.candidates("https://toy.example/v1/vX3") == ["/v.{n}"]
    assert index.path_params("https://toy.example/v1/vX3") == {"n": "3"}
    assert index.candidates("https://toy.example/v1/vX3", strict=True) == []
    assert index.path_params("https://toy.example/v1/v.3", strict=True) == {"n": "3"}


REGEX_TEMPLATES = """\
    openapi: 3.0.3
    info: {title: regex, version: "1"}
    servers: [{url: "https://rx.example"}]
    paths:
      /a+b/{x}: {get: {parameters: [{name: x, in: path}]}}
      /c(d)/e: {get: {}}
      /f[gh]/{y}.json: {get: {parameters: [{name: y, in: path}]}}
      /i|j: {get: {}}
      /k.l/{m}/n.o: {get: {parameters: [{name: m, in: path}]}}
      /{p}: {get: {parameters: [{name: p, in: path}]}}
      /q\\d: {get: {}}
      /r{s: {get: {}}
"""


@functools.lru_cache(maxsize=None)
def template_regex(template: str, strict: bool) -> re.Pattern[str]:
    literal = re.escape if strict else (lambda s: s)
    parts = re.split(r"{.*?}", template)
    try:
        return re.compile("[^/?&]+".join(literal(p) for p in parts))
    except re.error:
        return re.compile("[^/?&]+".join(re.escape(p) for p in parts))


def regex_candidates(index: SpecIndex, url: str, strict: bool) -> list[str]:
    """The module docstring's definition, by regular expressions alone (what the index's checks shortcut)."""
    rest = url[len(index.server):] if url.startswith(index.server) else url
    found = [t for t in index.templates if template_regex(t, strict).fullmatch(rest)]
    order = index.templates
    return sorted(found, key=lambda t: (len(re.findall(r"{.*?}", t)), -len(t), order.index(t)))


def regex_path_params(index: SpecIndex, url: str, strict: bool) -> dict[str, str]:
    """The module docstring's path_params, by regular expressions alone: the first candidate's template with
    each declared parameter a greedy ``[^/]+`` group (its first occurrence), searched in the whole URL
    (reference) or matched in full to the URL less the server (strict)."""
    found = regex_candidates(index, url, strict)
    if not found:
        return {}
    template = found[0]
    declared = {name for op in index._by_template[template].operations.values()
                for name, location in op.parameters if location == "path"}
    literal = re.escape if strict else (lambda s: s)
    parts, names = re.split(r"{.*?}", template), [m[1:-1] for m in re.findall(r"{.*?}", template)]
    source, groups = literal(parts[0]), {}
    for i, (name, rest) in enumerate(zip(names, parts[1:])):
        if name in declared and name not in groups.values():
            groups[f"g{i}"] = name
            source += f"(?P<g{i}>[^/]+)"
        else:
            source += "[^/]+"
        source += literal(rest)
    try:
        pattern = re.compile(source)
    except re.error:
        pattern, groups = re.compile("[^/]+".join(re.escape(p) for p in parts)), {}
    rest = url[len(index.server):] if url.startswith(index.server) else url
    match = pattern.fullmatch(rest) if strict else pattern.search(url)
    return {} if match is None else {groups[g]: v for g, v in match.groupdict().items()}


def perturbed(url: str) -> list[str]:
    """The URL and near misses: characters a '.' or a placeholder may or may not match, extra or fewer segments."""
    cut = url.rstrip("/").rsplit("/", 1)[0]
    return [url, url + "/", url + "/x", cut, url.replace(".", "_"), url.replace("_", "."), url.replace("/", "//", 1),
            url.upper(), url + "?a=1", url.replace("/", "\n", 1), url + "\n", url.replace("a", "&", 1), cut + "/a.b",
            url + "/" + url.rsplit("/", 2)[-2] + "/x", url.replace("/", "/" + url.rsplit("/", 1)[-1] + "/", 1)]


@pytest.mark.parametrize("strict", [False, True])
def test_matching_and_path_params_equal_the_regular_expression_definition(tmp_path: Path, strict: bool) -> None:
    indexes = [SpecIndex.load(write_spec(tmp_path, REGEX_TEMPLATES, "rx.yaml")), SpecIndex.load(write_spec(tmp_path, TOY))]
    urls = ["https://rx.example/aab/1", "https://rx.example/a+b/1", "https://rx.example/cd/e", "https://rx.example/c(d)/e",
            "https://rx.example/fg/7.json", "https://rx.example/f[gh]/7.json", "https://rx.example/i",
            "https://rx.example/kXl/2/nxo", "https://rx.example/q5", "https://rx.example/r{s",
            "https://toy.example/v1/vX3", "https://toy.example/v1/v.3", "https://toy.example/v1/items/7/parts/w"]
    if (SPECS / "slack.yaml").exists():
        from wapii_core.datasets.loader import load_dataset_dir

        dataset = load_dataset_dir(WAPIIBENCH, "wapiibench")
        indexes += [load(api) for api in APIS]
        urls += [s.config["url"] for s in dataset.samples]
    checked = captured = 0
    for index in indexes:
        for url in {u for base in urls for u in perturbed(base)}:
            expected = regex_candidates(index, url, strict)
            assert index.candidates(url, strict=strict) == expected, (index.path.name, url)
            params = index.path_params(url, strict=strict)
            assert params == regex_path_params(index, url, strict), (index.path.name, url)
            checked += bool(expected)
            captured += bool(params)
    assert checked >= 20 and captured >= 10


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("swagger: '1.2'\npaths: {}\n", "that the converter refuses: Unsupported swagger/OpenAPI version: 1.2"),
        ("openapi: 3.0.0\npaths: [1]\nservers: [{url: x}]\n", "has no 'paths' object"),
        ("openapi: 3.0.0\npaths: {}\n", "has no servers[].url"),
        ("openapi: 3.0.0\npaths: {a: [\n", "malformed YAML at line 3, column 1"),
        ("- just\n- a list\n", "not an OpenAPI 3 document"),
        ("openapi: 3.0.0\nservers: [{url: x}]\npaths: {/a: {get: {parameters: [{$ref: '#/nowhere'}]}}}\n",
         "points nowhere"),
    ],
)
def test_bad_specs_raise_one_line_input_errors(tmp_path: Path, body: str, problem: str) -> None:
    path = write_spec(tmp_path, body)
    with pytest.raises(InputError) as info:
        SpecIndex.load(path)
    message = str(info.value)
    assert "\n" not in message
    assert message.startswith(str(path)) and problem in message


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        SpecIndex.load(tmp_path / "absent.yaml")


# ---------------------------------------------------------------- caching

def test_disk_cache_is_written_atomically_and_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_spec(tmp_path, TOY)
    first = SpecIndex.load(path)
    cached = cache_dir() / "specs" / f"{first.sha256}.index.json"
    assert cached.is_file()
    assert not [p for p in cached.parent.iterdir() if p.name.endswith(".tmp")]
    assert SpecIndex.load(path) is first  # in-process memo

    monkeypatch.setattr(spec_module, "_memo", {})
    monkeypatch.setattr(spec_reader, "read", lambda *a: pytest.fail("the disk cache was not used"))
    again = SpecIndex.load(path)
    assert again is not first and again.path == path and again.sha256 == first.sha256
    assert again.candidates("https://toy.example/v1/items/1") == ["/items/{item_id}"]


def test_corrupt_or_stale_cache_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_spec(tmp_path, TOY)
    sha = SpecIndex.load(path).sha256
    cached = cache_dir() / "specs" / f"{sha}.index.json"
    for garbage in (b"not JSON", b"", b'{"format": 3}\n[]'):
        cached.write_bytes(garbage)
        monkeypatch.setattr(spec_module, "_memo", {})
        assert SpecIndex.load(path).is_legal("size", "data", "post", "/items")
    monkeypatch.setattr(spec_module, "CACHE_FORMAT", spec_module.CACHE_FORMAT + 1)
    monkeypatch.setattr(spec_module, "_memo", {})
    built = []
    real_read = spec_reader.read
    monkeypatch.setattr(spec_reader, "read", lambda *a: built.append(1) or real_read(*a))
    SpecIndex.load(path)
    assert built == [1]


def test_changed_file_content_is_reindexed(tmp_path: Path) -> None:
    path = write_spec(tmp_path, TOY)
    before = SpecIndex.load(path)
    path.write_text(textwrap.dedent(TOY).replace("/items/{item_id}/parts/{part}", "/gadgets/{g}"))
    after = SpecIndex.load(path)
    assert after.sha256 != before.sha256
    assert "/gadgets/{g}" in after.templates and "/gadgets/{g}" not in before.templates


@needs_specs
def test_all_four_specs_are_parsed_once_then_indexed_from_the_disk_cache(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh process parses each spec once and after that reads its index from the disk cache. The
    time each path takes (< 2 s cold, < 0.2 s cached for the four) is ``benchmarks/bench_spec.py``'s."""
    monkeypatch.setenv("WAPII_CACHE_DIR", str(tmp_path))  # an empty disk cache
    monkeypatch.setattr(spec_module, "_memo", {})
    parsed: list[str] = []
    real_read = spec_reader.read
    monkeypatch.setattr(spec_reader, "read", lambda *a: parsed.append(str(a[0])) or real_read(*a))
    cold = {api: load(api) for api in APIS}
    assert len(parsed) == len(APIS)
    monkeypatch.setattr(spec_module, "_memo", {})
    cached = {api: load(api) for api in APIS}
    assert len(parsed) == len(APIS), "an index was rebuilt although the disk cache held it"
    for api in APIS:
        assert cached[api] is not cold[api]
        assert (cached[api].sha256, cached[api].templates) == (cold[api].sha256, cold[api].templates)


# ---------------------------------------------------------------- the YAML loader

@needs_specs
@pytest.mark.parametrize("api", APIS)
def test_fast_yaml_loader_equals_safe_load(api: str) -> None:
    raw = (SPECS / f"{api}.yaml").read_bytes()
    assert same(yamlload.load(raw), yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)))


def large_description() -> dict:
    """A large description built from WAPIIBench's four specs: their paths and components side by
    side, each API's paths repeated under 12 prefixes (about 3 MB of YAML, the shapes, repeated
    scalars and key orders of real descriptions)."""
    document: dict = {"openapi": "3.0.3", "info": {"title": "four APIs", "version": "1"}, "paths": {},
                      "components": {}}
    for api in APIS:
        spec = yaml.load((SPECS / f"{api}.yaml").read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        for copy in range(12):
            for template, item in (spec.get("paths") or {}).items():
                document["paths"][f"/{api}/{copy}{template}"] = item
        for kind, entries in (spec.get("components") or {}).items():
            document["components"].setdefault(kind, {}).update({f"{api}_{k}": v for k, v in entries.items()})
    return document


@pytest.mark.slow
@needs_specs
@pytest.mark.parametrize("source", ["wapiibench", "github"])
def test_fast_yaml_loader_equals_safe_load_on_a_large_description(source: str) -> None:
    """A large description written by PyYAML's safe dumper reads back as the document it was written
    from: what PyYAML's own loader gives for it (which costs several times as long to check
    directly). Built from WAPIIBench (always), and GitHub's 9.5 MB description as the large-spec
    benchmark writes it when that benchmark has fetched it."""
    if source == "github" and not LARGE_SPEC.is_file():
        pytest.skip("needs GitHub's description (benchmarks/bench_large_spec.py fetches it)")
    document = large_description() if source == "wapiibench" else json.loads(LARGE_SPEC.read_bytes())
    text = yaml.dump(document, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False,
                     allow_unicode=True)
    assert same(yamlload.load(text), document)


@pytest.mark.parametrize(
    "text",
    [
        "a: 1\nb: [true, no, ~, 2.5, '3', 0x1f, 2020-01-02]\n",
        "base: &b {x: 1, y: 2}\nuse: *b\nmerged:\n  <<: *b\n  y: 3\nfirst:\n  y: 4\n  <<: [*b, {z: 5}]\n",
        "k: !!str 12\n'<<': literal\n",
        "- plain\n- - nested\n",
        "scalar only",
        "",
        "--- {a: 1}\n...\n",
        "s: !!set {a, b}\no: !!omap [{x: 1}]\n",
    ],
)
def test_fast_yaml_loader_small_documents(text: str) -> None:
    assert yamlload.load(text) == yaml.safe_load(text)


def test_fast_yaml_loader_errors_like_safe_load() -> None:
    for text in ("a: [1\n", "? [1]\n: 2\n", "a: *nothing\n", "a: 1\n---\nb: 2\n", "a: 1\n]\n", "x: !custom {}\n"):
        with pytest.raises(yaml.YAMLError):
            yamlload.load(text)
