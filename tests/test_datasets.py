"""Datasets: loading WAPIIBench and the demo, validating dataset directories, fetching with sha256 checks."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from support import WAPIIBENCH, sha256_of
from wapii_core.datasets.fetch import WAPIIBENCH_FILES
from wapii_core.datasets.loader import dataset_summary, load_dataset_dir, load_wapiibench
from wapii_core.base.errors import InputError, WapiiError

WAPIIBENCH_COUNTS = {"asana": 167, "google_calendar_v3": 37, "google_sheet_v4": 17, "slack": 174}
DATASET_SHA256 = "09c778d61f2bf791b1f9bb1572e2a35c5784abcac7fc4382b1d6e30b0e6ef507"
ACCEPT = "application/json, text/plain, */*"


# --- WAPIIBench -------------------------------------------------------------------------------------


def test_wapiibench_loads_from_the_shared_copy() -> None:
    ds = load_wapiibench(WAPIIBENCH)
    assert ds.name == "wapiibench"
    assert len(ds.samples) == 395
    assert Counter(s.api for s in ds.samples) == WAPIIBENCH_COUNTS
    assert set(ds.specs) == set(WAPIIBENCH_COUNTS)
    assert all(path.is_file() for path in ds.specs.values())
    assert ds.display_names == {"asana": "Asana", "google_calendar_v3": "Google Calendar",
                                "google_sheet_v4": "Google Sheets", "slack": "Slack Web"}
    assert ds.sha256 == DATASET_SHA256
    assert ds.prompts_dir is not None and (ds.prompts_dir / "code_generation_prompt.md").is_file()
    first = ds.sample("asana/0")
    assert first.config["params"] == {"parent": "159874", "limit": 50}
    assert first.config["headers"]["Accept"] == ACCEPT
    assert sum(s.checks == "OK" for s in ds.samples) == 391

    summary = dataset_summary(ds)
    assert summary["name"] == "wapiibench" and summary["sha256"] == DATASET_SHA256
    assert summary["samples"] == 395
    assert {api: entry["samples"] for api, entry in summary["apis"].items()} == WAPIIBENCH_COUNTS
    assert json.loads(json.dumps(summary)) == summary  # printable as JSON


def test_wapiibench_directory_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WAPII_DATA_DIR", str(WAPIIBENCH))
    assert len(load_wapiibench(None).samples) == 395


def test_missing_wapiibench_tells_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WAPII_DATA_DIR", raising=False)
    monkeypatch.setenv("WAPII_CACHE_DIR", str(tmp_path / "empty-cache"))
    with pytest.raises(WapiiError) as info:
        load_wapiibench(None)
    message = str(info.value)
    assert "not found" in message and str(tmp_path / "empty-cache") in message
    assert "wapii datasets fetch wapiibench" in message and "--data-dir" in message
    assert "\n" not in message


def test_incomplete_wapiibench_names_what_is_missing(tmp_path: Path) -> None:
    (tmp_path / "dataset.json").symlink_to(WAPIIBENCH / "dataset.json")
    with pytest.raises(WapiiError) as info:
        load_wapiibench(tmp_path)
    assert "incomplete" in str(info.value) and "specs/asana.yaml" in str(info.value)
    assert "wapii datasets fetch wapiibench" in str(info.value)


def test_fetch_manifest_is_the_whole_shared_copy_and_its_pins_hold() -> None:
    shared = {str(p.relative_to(WAPIIBENCH)) for p in WAPIIBENCH.rglob("*") if p.is_file()} - {"README.md"}
    assert {f.local for f in WAPIIBENCH_FILES} == shared
    pinned = {f.local: f.sha256 for f in WAPIIBENCH_FILES if f.sha256}
    assert set(pinned) == {"dataset.json", "specs/asana.yaml", "specs/google_calendar_v3.yaml",
                           "specs/google_sheet_v4.yaml", "specs/slack.yaml", "prompts/code_generation_prompt.md"}
    for local, digest in pinned.items():
        assert sha256_of(WAPIIBENCH / local) == digest, local
        assert digest in (WAPIIBENCH / "README.md").read_text()


# --- validating dataset directories -----------------------------------------------------------------

SHOP_SPEC = """\
openapi: 3.0.0
info: {title: Tiny Shop API, version: '1'}
servers: [{url: 'https://shop.example/api'}]
paths:
  /items/{id}:
    get:
      parameters: [{name: id, in: path, required: true, schema: {type: string}}]
      responses: {'200': {description: ok}}
"""


def shop_sample(index: int, **overrides: Any) -> dict[str, Any]:
    sample = {"api": "shop", "index": index, "task": f"Get item {index}.",
              "config": {"url": f"https://shop.example/api/items/{index}", "method": "get",
                         "headers": {"Accept": ACCEPT}}}
    sample.update(overrides)
    return sample


def make_dataset(root: Path, samples: Any = None, spec: str = SHOP_SPEC, spec_name: str = "shop.yaml") -> Path:
    (root / "specs").mkdir(parents=True)
    (root / "specs" / spec_name).write_text(spec)
    dataset = samples if samples is not None else [shop_sample(0), shop_sample(1)]
    (root / "dataset.json").write_text(dataset if isinstance(dataset, str) else json.dumps(dataset))
    return root


def input_error(directory: Path) -> InputError:
    with pytest.raises(InputError) as info:
        load_dataset_dir(directory, "test")
    assert "\n" not in str(info.value)
    return info.value


def test_a_valid_directory_loads(tmp_path: Path) -> None:
    make_dataset(tmp_path)
    ds = load_dataset_dir(tmp_path, "shop-test")
    assert [s.id for s in ds.samples] == ["shop/0", "shop/1"]
    assert ds.specs == {"shop": tmp_path / "specs" / "shop.yaml"}
    assert ds.display_names == {"shop": "Tiny Shop API"}  # from info.title
    assert ds.prompts_dir is None
    assert ds.sha256 == sha256_of(tmp_path / "dataset.json") and ds.source == tmp_path / "dataset.json"
    assert "params" not in ds.samples[0].config  # absent fields stay absent


def test_samples_wrapper_apis_json_json_spec_and_prompts(tmp_path: Path) -> None:
    spec_json = json.dumps(yaml.safe_load(SHOP_SPEC))
    make_dataset(tmp_path, {"samples": [shop_sample(0)]}, spec=spec_json, spec_name="shop.json")
    (tmp_path / "apis.json").write_text(json.dumps({"shop": "Tiny Shop"}))
    (tmp_path / "prompts").mkdir()
    ds = load_dataset_dir(tmp_path, "shop-test")
    assert len(ds.samples) == 1 and ds.display_names == {"shop": "Tiny Shop"}
    assert ds.specs["shop"].name == "shop.json" and ds.prompts_dir == tmp_path / "prompts"


BAD_SAMPLES = [
    ("malformed JSON", '[{"api": "shop",\n  "index": }]', "dataset.json: malformed JSON at line 2, column 12: Expecting value"),
    ("not a list", '{"tasks": []}', "expected a list of samples"),
    ("empty", "[]", "no samples"),
    ("missing url", [shop_sample(0), {**shop_sample(1), "config": {"method": "get", "headers": {}}}],
     "sample 1 (shop/1): missing field 'config.url'"),
    ("missing task", [{"api": "shop", "index": 0, "config": shop_sample(0)["config"]}],
     "sample 0 (shop/0): missing field 'task'"),
    ("index as string", [{**shop_sample(0), "index": "0"}], "sample 0: field 'index': input should be a valid integer"),
    ("upper-case method", [shop_sample(0, config={**shop_sample(0)["config"], "method": "GET"})],
     "sample 0 (shop/0): field 'config.method'"),
    ("header not a string", [shop_sample(0, config={**shop_sample(0)["config"], "headers": {"X-Page": 2}})],
     "field 'config.headers.X-Page': input should be a valid string (got 2)"),
    ("null params", [shop_sample(0, config={**shop_sample(0)["config"], "params": None})],
     "field 'config.params'"),
    ("unknown config key", [shop_sample(0, config={**shop_sample(0)["config"], "body": {}})],
     "unknown field 'config.body'"),
    ("sample not an object", [shop_sample(0), ["shop", 1]], "sample 1: expected an object, got a list"),
    ("duplicate", [shop_sample(0), shop_sample(1), shop_sample(0, task="Again.")],
     "sample 2 (shop/0): duplicate of sample 0"),
    ("unknown api", [shop_sample(0), shop_sample(1, api="pets")],
     "sample 1 (pets/1): unknown api 'pets' (no specs/pets.yaml, .yml or .json)"),
]


@pytest.mark.parametrize("samples, expected", [case[1:] for case in BAD_SAMPLES], ids=[c[0] for c in BAD_SAMPLES])
def test_bad_dataset_json_is_refused_naming_file_and_problem(tmp_path: Path, samples: Any, expected: str) -> None:
    error = input_error(make_dataset(tmp_path, samples))
    assert error.path == str(tmp_path / "dataset.json")
    assert expected in str(error)


BAD_SPECS = [
    ("malformed YAML", "openapi: 3.0.0\npaths:\n  /x: [1, 2\nservers: []\n", "malformed YAML at line 4, column"),
    ("swagger 1.2", "swagger: '1.2'\npaths: {/x: {}}\n",
     "a Swagger description (read as OpenAPI 3 by converting it with swagger2openapi 7.0.8 on Node.js) that the "
     "converter refuses: Unsupported swagger/OpenAPI version: 1.2"),
    ("swagger 2 without a host", "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths: {/x: {}}\n",
     "no 'servers' entry with a 'url': wapii needs the API's base URL"),
    ("no version", "paths: {/x: {}}\nservers: [{url: 'https://a.example'}]\n", "no 'openapi: 3.x' field"),
    ("wrong version", "openapi: 4.0.0\npaths: {/x: {}}\nservers: [{url: 'https://a.example'}]\n",
     "'openapi' is '4.0.0', expected 3.x"),
    ("no paths", "openapi: 3.0.0\nservers: [{url: 'https://a.example'}]\n", "(no 'paths')"),
    ("no servers", "openapi: 3.0.0\npaths: {/x: {}}\n", "no 'servers' entry with a 'url': wapii needs the API's base URL"),
    ("a list", "- openapi: 3.0.0\n", "the top level is a list"),
]


@pytest.mark.parametrize("spec, expected", [case[1:] for case in BAD_SPECS], ids=[c[0] for c in BAD_SPECS])
def test_bad_spec_is_refused_naming_file_and_problem(tmp_path: Path, spec: str, expected: str) -> None:
    error = input_error(make_dataset(tmp_path, spec=spec))
    assert error.path == str(tmp_path / "specs" / "shop.yaml")
    assert expected in str(error)


def test_malformed_json_spec_and_apis_json(tmp_path: Path) -> None:
    make_dataset(tmp_path / "a", spec='{"openapi": "3.0.0",', spec_name="shop.json")
    assert "shop.json: malformed JSON at line 1" in str(input_error(tmp_path / "a"))
    make_dataset(tmp_path / "b")
    (tmp_path / "b" / "apis.json").write_text('{"shop": 3}')
    assert "apis.json: expected an object mapping each api" in str(input_error(tmp_path / "b"))


def test_missing_dataset_file_and_directory(tmp_path: Path) -> None:
    assert str(input_error(tmp_path)) == f"{tmp_path / 'dataset.json'}: no such file"
    assert str(input_error(tmp_path / "nope")) == f"{tmp_path / 'nope'}: no such dataset directory"


def test_a_data_dir_above_the_data_names_the_one_below(tmp_path: Path) -> None:
    (tmp_path / "wapiibench").symlink_to(WAPIIBENCH)
    with pytest.raises(WapiiError) as info:
        load_wapiibench(tmp_path)
    message = str(info.value)
    assert message.endswith(f"--data-dir names the directory above it; pass --data-dir {tmp_path / 'wapiibench'}")
    assert "or pass --data-dir" not in message  # it was passed
    with pytest.raises(WapiiError) as info:
        load_wapiibench(tmp_path / "nowhere")
    assert "--data-dir must name the directory that holds dataset.json" in str(info.value)
