"""The shared spec reader: one parse per file content, a JSON disk cache that is exact and trusted only when safe."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from support import LARGE_SPEC, WAPIIBENCH, same
from wapii_core.openapi import parsing
import wapii_core.openapi.cache as spec_cache
from wapii_core.openapi import tagged_json
from wapii_core.openapi import yamlload
from wapii_core.base.errors import InputError

SPECS = WAPIIBENCH / "specs"
needs_specs = pytest.mark.skipif(not (SPECS / "slack.yaml").exists(), reason="needs ../shared/wapiibench")


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
    # a key that is not a string makes a document no tree with string keys, so its text is read back
    for text in ("a: {200: ok}\n", "a: {true: 1}\n", "a: {~: 1, 2020-01-02: d}\n"):
        value, tree = yamlload.load_tree(text)
        assert not tree, text
        written, tagged = tagged_json.dumps(value, tree=True, string_keys=tree)
        assert tagged and same(tagged_json.loads(written, tagged), value)
    value, tree = yamlload.load_tree("a: [2020-01-02, .nan, !!binary aGk=]\n")  # string keys, values JSON lacks
    assert tree
    written, tagged = tagged_json.dumps(value, tree=True, string_keys=True)
    assert tagged and same(tagged_json.loads(written, tagged), value)


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
    first = parsing.read_document(path)
    assert same(first.data, yamlload.load(YAML_VALUES))
    copy = write(tmp_path, "copy.yaml", YAML_VALUES)
    assert parsing.read_document(copy).data is first.data  # same content: the same parsed object
    assert spec_cache.entry_path(first.sha256, "document-yaml").is_file()

    monkeypatch.setattr(parsing, "_memo", parsing.OrderedDict())
    monkeypatch.setattr(parsing, "parse_yaml_tree", lambda *a: pytest.fail("parsed although cached"))
    again = parsing.read_document(path)
    assert again.data is not first.data and same(again.data, first.data)


def test_a_settled_file_is_not_read_again_until_it_changes(tmp_path: Path, monkeypatch) -> None:
    path = write(tmp_path, "api.yaml", "a: 1\n")
    assert parsing.read_document(path).data == {"a": 1}
    path.write_text("a: 2\n")  # within the same clock tick its times may not change: it was not settled
    assert parsing.read_document(path).data == {"a": 2}

    monkeypatch.setattr(parsing, "SETTLED_NS", -10**18)  # every file settled
    first = parsing.read_document(path)
    real_read = parsing.read_bytes
    monkeypatch.setattr(parsing, "read_bytes", lambda p: pytest.fail("read again although unchanged"))
    assert parsing.read_document(path).data is first.data
    monkeypatch.setattr(parsing, "read_bytes", real_read)
    path.write_text("a: 30\n")  # another size
    assert parsing.read_document(path).data == {"a": 30}
    replaced = write(tmp_path, "new.yaml", "a: 4\n")
    replaced.replace(path)  # another inode, the same size
    assert parsing.read_document(path).data == {"a": 4}


def test_the_suffix_chooses_the_syntax(tmp_path: Path) -> None:
    text = '{"n": 1e5, "s": "a\\/b"}'
    assert parsing.read_document(write(tmp_path, "a.json", text)).data == {"n": 100000.0, "s": "a/b"}
    assert parsing.read_document(write(tmp_path, "a.yaml", text)).data["n"] == "1e5"  # YAML 1.1: a string


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
        parsing.read_document(path)
    assert str(info.value).startswith(f"{path}: ") and problem in str(info.value) and "\n" not in str(info.value)


def test_cache_entries_others_could_write_are_not_trusted(tmp_path: Path, monkeypatch) -> None:
    path = write(tmp_path, "api.yaml", "openapi: 3.0.0\n")
    sha = parsing.read_document(path).sha256
    entry = spec_cache.entry_path(sha, "document-yaml")
    forged = entry.read_text().replace("3.0.0", "6.6.6")
    entry.write_text(forged)
    entry.chmod(0o600)
    assert spec_cache.read(sha, "document-yaml", parsing.FORMAT) == {"openapi": "6.6.6"}  # the user's own file
    entry.chmod(0o666)
    assert spec_cache.read(sha, "document-yaml", parsing.FORMAT) is None  # writable by others: a miss
    entry.unlink()
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(forged)
    elsewhere.chmod(0o600)
    os.symlink(elsewhere, entry)
    assert spec_cache.read(sha, "document-yaml", parsing.FORMAT) is None  # a link: a miss
    entry.unlink()
    monkeypatch.setattr(parsing, "_memo", parsing.OrderedDict())
    assert parsing.read_document(path).data == {"openapi": "3.0.0"}
    assert entry.is_file() and not entry.is_symlink() and entry.stat().st_mode & 0o077 == 0


@needs_specs
@pytest.mark.parametrize("api", ["asana", "google_calendar_v3", "google_sheet_v4", "slack"])
def test_cached_wapiibench_documents_equal_the_parse(api: str, monkeypatch) -> None:
    path = SPECS / f"{api}.yaml"
    parsed = yamlload.load(path.read_bytes().decode("utf-8"))
    parsing.read_document(path)
    monkeypatch.setattr(parsing, "_memo", parsing.OrderedDict())
    monkeypatch.setattr(parsing, "parse_yaml_tree", lambda *a: pytest.fail("parsed although cached"))
    assert same(parsing.read_document(path).data, parsed)


def test_fast_json_gives_json_loads_objects_and_errors() -> None:
    """Large texts go to jiter first: the same objects as ``json.loads`` (types, key order, the last of
    duplicated keys, floats to the last bit), and where jiter refuses text, ``json.loads``'s answer."""
    import json
    import random

    from wapii_core.base import fastjson

    rng = random.Random(7)
    numbers = [rng.uniform(-1e6, 1e6) for _ in range(40_000)] + [rng.randrange(-10**30, 10**30) for _ in range(10_000)]
    numbers += [5e-324, 2.2250738585072011e-308, 1.7976931348623157e308, -0.0, 0.1, 1e23]
    body = json.dumps({"numbers": numbers, "text": "é\u2028\"\\/" * 1000, "dup": 1, "nested": [[{"a": None}]] * 99})
    body = body[:-1] + ', "dup": [true, false], "special": [NaN, Infinity, -Infinity, 1e400, 9007199254740993]}'
    texts = {"plain": body, "bytes": body.encode(), "lone surrogate": body[:-1] + ', "s": "\\ud800"}',
             "bom": "\ufeff".encode() + body.encode(), "deep": "[" * 250 + body + "]" * 250}
    assert len(body) > fastjson.LARGE
    for name, text in texts.items():
        assert same(fastjson.loads(text), json.loads(text)), name
    for bad in (body + "]", body[:-1] + ",}", body.replace("true", "True"), body.encode() + b"\xff"):
        with pytest.raises(ValueError) as fast:
            fastjson.loads(bad)
        with pytest.raises(ValueError) as slow:
            json.loads(bad)
        assert (type(fast.value), str(fast.value)) == (type(slow.value), str(slow.value))
    if LARGE_SPEC.is_file():  # GitHub's 13 MB description
        raw = LARGE_SPEC.read_bytes()
        assert same(fastjson.loads(raw), json.loads(raw))
