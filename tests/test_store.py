"""The run store: append-only lines, crash repair, resume identity, atomic writes."""

from __future__ import annotations

import json

import pytest

from wapii_core.base.errors import InputError, WapiiError
from wapii_core.base.model import Generation
from wapii_core.store.record import RunRecord
from wapii_core.store.rundir import GENERATIONS_FILE, RunStore, read_jsonl, write_atomic

RUN = RunRecord(dataset="demo", dataset_sha256="abc", adapter="axios_js", backend="oracle", mode="reference",
                backend_params={}, setup="full", setting="unconstrained", draws=1)


def test_generations_survive_reopen_and_a_cut_off_last_line_is_dropped(tmp_path):
    store = RunStore.open(tmp_path, RUN)
    store.add_generation(Generation(sample="a/0", code="axios.get('x');"))
    store.add_generation(Generation(sample="a/1", code="axios.get('y');"))
    store.close()
    with open(tmp_path / GENERATIONS_FILE, "a") as handle:  # what a kill -9 mid-write leaves
        handle.write('{"sample": "a/2", "co')
    reopened = RunStore.open(tmp_path, RUN)
    assert sorted(reopened.generations) == ["a/0#0", "a/1#0"]
    assert (tmp_path / GENERATIONS_FILE).read_text().endswith("\n")
    reopened.add_generation(Generation(sample="a/2", code="z"))
    reopened.close()
    assert len((tmp_path / GENERATIONS_FILE).read_text().splitlines()) == 3


def test_a_retried_generation_supersedes_the_failed_one(tmp_path):
    store = RunStore.open(tmp_path, RUN)
    store.add_generation(Generation(sample="a/0", finish_reason="error", error="HTTP 500"))
    assert [g.sample for g in store.failed_generations()] == ["a/0"]
    store.add_generation(Generation(sample="a/0", code="ok"))
    store.close()
    again = RunStore.open(tmp_path, RUN)
    assert again.failed_generations() == [] and again.finished_generations()["a/0#0"].code == "ok"


def test_a_directory_of_another_run_is_refused_untouched(tmp_path):
    store = RunStore.open(tmp_path, RUN)
    store.add_generation(Generation(sample="a/0", code="x"))
    store.close()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with pytest.raises(WapiiError, match="holds a run with adapter 'axios_js', not 'requests_py' .use another --out, or --force to replace it.$"):
        RunStore.open(tmp_path, RUN.model_copy(update={"adapter": "requests_py"}))
    with pytest.raises(WapiiError, match="holds a run with backend parameter temperature unset, not 0.2 "):
        RunStore.open(tmp_path, RUN.model_copy(update={"backend_params": {"temperature": 0.2}}))
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_run_json_is_written_with_the_first_stored_line_only(tmp_path):
    store = RunStore.open(tmp_path, RUN)
    assert not (tmp_path / "run.json").exists()  # a run that fails now leaves nothing to block its rerun
    store.add_generation(Generation(sample="a/0", code="x"))
    assert json.loads((tmp_path / "run.json").read_text()) == RUN.data()
    store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["generations.jsonl", "run.json"]


def test_an_open_store_locks_its_directory(tmp_path):
    store = RunStore.open(tmp_path / "run", RUN)
    with pytest.raises(WapiiError, match=f"^{tmp_path / 'run'}: another wapii process .pid [0-9]+. is writing"):
        RunStore.open(tmp_path / "run", RUN)
    store.close()
    assert not (tmp_path / "run").exists()  # it made the directory and nothing was stored in it
    RunStore.open(tmp_path / "run", RUN).close()


def test_a_corrupt_line_in_the_middle_names_file_and_line(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text('{"sample": "a/0", "code": "x"}\nnot json\n{"sample": "a/1", "code": "y"}\n')
    with pytest.raises(InputError) as err:
        read_jsonl(path, Generation)
    assert str(path) in str(err.value) and "line 2" in str(err.value) and "\n" not in str(err.value)


def test_write_atomic_leaves_the_old_file_when_writing_fails(tmp_path):
    target = tmp_path / "summary.json"
    write_atomic(target, json.dumps({"old": True}))

    with pytest.raises(TypeError):
        write_atomic(target, 42)  # type: ignore[arg-type]
    assert json.loads(target.read_text()) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]
