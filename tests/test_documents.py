"""The shared spec reader: one parse per file content, a JSON disk cache that is exact and trusted only when safe."""

from __future__ import annotations

import datetime as dt
import math
import os
from pathlib import Path

import pytest

from support import WAPIIBENCH
from wapii_core.spec import documents
import wapii_core.spec.cache as spec_cache
from wapii_core.spec import tagged_json
from wapii_core.spec import yamlload
from wapii_core.base.errors import InputError

SPECS = WAPIIBENCH / "specs"
needs_specs = pytest.mark.skipif(not (SPECS / "slack.yaml").exists(), reason="needs ../shared/wapiibench")


def same(a, b) -> bool:
    """Equal, with the same types all the way down (1 == 1.0 == True would hide a lossy cache)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return a == b


YAML_VALUES = """\
plain: {s: text, i: 12, f: 2.5, t: true, n: ~, inf: .inf, nan: .nan, neg: -0.0, big: 123456789012345678901234567890}
dates: [2020-01-02, 2020-01-02T03:04:05Z, 2020-01-02 03:04:05.25+05:30, 2020-01-02T03:04:05]
keys: {200: ok, 2.5: half, true: yes, null: nothing, 2020-01-02: a date}
binary: !!binary aGVsbG8=
set: !!set {a, b}
omap: !!omap [{x: 1}, {y: 2}]
accent: "\\u00e9"
"\\0tag": a key that looks like the tag
anchored: &a {deep: [1, {two: 2}]}
again: *a
"""


def test_tagged_json_round_trips_every_value_yaml_builds() -> None:
    value = yamlload.load(YAML_VALUES)
    assert isinstance(value["dates"][1], dt.datetime) and isinstance(value["keys"][200], str)
    text, tagged = tagged_json.dumps(value)
    assert tagged and text.isascii()
    assert same(tagged_json.loads(text, tagged), value)


def test_plain_json_needs_no_tags() -> None:
    value = {"a": [1, 2.5, None, True, {"b": "c\ud800"}]}
    text, tagged = tagged_json.dumps(value)
    assert not tagged and same(tagged_json.loads(text, False), value)


def test_a_tree_takes_the_c_encoder_only_where_it_is_exact() -> None:
    """``tree=True`` gives the same text a plain document gets and falls back to tags wherever a type
    would be lost; only a document read without aliases is a tree."""
    value, tree = yamlload.load_tree(YAML_VALUES)
    assert not tree  # "again: *a"
    text, tagged = tagged_json.dumps(value, tree=True)
    assert tagged and same(tagged_json.loads(text, tagged), value)
    plain, tree = yamlload.load_tree("a: [1, 2.5, true, ~, {b: -0.0, c: .inf}]\nd: '\u00e9'\n")
    assert tree
    text, tagged = tagged_json.dumps(plain, tree=True)
    assert not tagged and (text, tagged) == tagged_json.dumps(plain) and same(tagged_json.loads(text, False), plain)
    for lossy in ({200: "ok"}, {"k": (1, 2)}, {True: 1}, [float("nan")], {"1": 1, 1: 2}):
        text, tagged = tagged_json.dumps(lossy, tree=True)
        assert same(tagged_json.loads(text, tagged), lossy), lossy


def test_unencodable_values_are_refused() -> None:
    loop: list = []
    loop.append(loop)
    for value in (loop, {"x": object()}):
        with pytest.raises(tagged_json.Unencodable):
            tagged_json.dumps(value)
    with pytest.raises(tagged_json.Unencodable):
        tagged_json.dumps([[1] * 10] * 10, max_nodes=50)
    with pytest.raises(ValueError):
        tagged_json.loads('{"\\u0000tag": "exec", "value": "import os"}', True)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_document_is_parsed_once_per_content_and_cached_on_disk(tmp_path: Path, monkeypatch) -> None:
    path = write(tmp_path, "api.yaml", YAML_VALUES)
    first = documents.read_document(path)
    assert same(first.data, yamlload.load(YAML_VALUES))
    copy = write(tmp_path, "copy.yaml", YAML_VALUES)
    assert documents.read_document(copy).data is first.data  # same content: the same parsed object
    assert spec_cache.entry_path(first.sha256, "document-yaml").is_file()

    monkeypatch.setattr(documents, "_memo", documents.OrderedDict())
    monkeypatch.setattr(documents, "parse_yaml_tree", lambda *a: pytest.fail("parsed although cached"))
    again = documents.read_document(path)
    assert again.data is not first.data and same(again.data, first.data)


def test_the_suffix_chooses_the_syntax(tmp_path: Path) -> None:
    text = '{"n": 1e5, "s": "a\\/b"}'
    assert documents.read_document(write(tmp_path, "a.json", text)).data == {"n": 100000.0, "s": "a/b"}
    assert documents.read_document(write(tmp_path, "a.yaml", text)).data["n"] == "1e5"  # YAML 1.1: a string


@pytest.mark.parametrize(("name", "raw", "problem"), [
    ("a.yaml", b"a: [1\n", "malformed YAML at line 2, column 1"),
    ("a.json", b'{"a": }', "malformed JSON at line 1, column 7"),
    ("a.yaml", b"a: \xff\n", "not UTF-8 text"),
    ("absent.yaml", None, "no such file"),
])
def test_problems_are_one_line_input_errors(tmp_path: Path, name: str, raw: bytes | None, problem: str) -> None:
    path = tmp_path / name
    if raw is not None:
        path.write_bytes(raw)
    with pytest.raises(InputError) as info:
        documents.read_document(path)
    assert str(info.value).startswith(f"{path}: ") and problem in str(info.value) and "\n" not in str(info.value)


def test_cache_entries_others_could_write_are_not_trusted(tmp_path: Path, monkeypatch) -> None:
    path = write(tmp_path, "api.yaml", "openapi: 3.0.0\n")
    sha = documents.read_document(path).sha256
    entry = spec_cache.entry_path(sha, "document-yaml")
    forged = entry.read_text().replace("3.0.0", "6.6.6")
    entry.write_text(forged)
    entry.chmod(0o600)
    assert spec_cache.read(sha, "document-yaml", documents.FORMAT) == {"openapi": "6.6.6"}  # the user's own file
    entry.chmod(0o666)
    assert spec_cache.read(sha, "document-yaml", documents.FORMAT) is None  # writable by others: a miss
    entry.unlink()
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(forged)
    elsewhere.chmod(0o600)
    os.symlink(elsewhere, entry)
    assert spec_cache.read(sha, "document-yaml", documents.FORMAT) is None  # a link: a miss
    entry.unlink()
    monkeypatch.setattr(documents, "_memo", documents.OrderedDict())
    assert documents.read_document(path).data == {"openapi": "3.0.0"}
    assert entry.is_file() and not entry.is_symlink() and entry.stat().st_mode & 0o077 == 0


@needs_specs
@pytest.mark.parametrize("api", ["asana", "google_calendar_v3", "google_sheet_v4", "slack"])
def test_cached_wapiibench_documents_equal_the_parse(api: str, monkeypatch) -> None:
    path = SPECS / f"{api}.yaml"
    parsed = yamlload.load(path.read_bytes().decode("utf-8"))
    documents.read_document(path)
    monkeypatch.setattr(documents, "_memo", documents.OrderedDict())
    monkeypatch.setattr(documents, "parse_yaml_tree", lambda *a: pytest.fail("parsed although cached"))
    assert same(documents.read_document(path).data, parsed)
