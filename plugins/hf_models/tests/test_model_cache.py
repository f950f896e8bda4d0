"""The tests' per-machine cache of converted GGUF models (conftest.converted_once_per_machine)."""

from __future__ import annotations

import json
import shutil

from wapii_hf_models import gguf


def test_a_conversion_is_kept_once_per_machine_and_an_empty_cache_only_costs_it(tmp_path, monkeypatch,
                                                                                 convert_once_per_machine):
    machine = tmp_path / "machine"
    monkeypatch.setenv("WAPII_TEST_MODEL_CACHE", str(machine))
    source = tmp_path / "model.gguf"
    source.write_bytes(b"GGUF weights")
    converted = []

    def fake_convert(gguf_file, directory):  # the real one takes ~40 s: what is cached is what matters here
        converted.append(gguf_file)
        (directory / "model.safetensors").write_bytes(b"converted")

    monkeypatch.setattr(gguf, "convert", fake_convert)
    sha256 = gguf.file_sha256(source)

    monkeypatch.setenv("WAPII_CACHE_DIR", str(tmp_path / "first-session"))
    first = convert_once_per_machine(source)
    assert len(converted) == 1 and (first / "model.safetensors").read_bytes() == b"converted"
    kept = machine / sha256
    assert json.loads((kept / gguf.SOURCE_FILE).read_text())["sha256"] == sha256

    monkeypatch.setenv("WAPII_CACHE_DIR", str(tmp_path / "second-session"))  # a later test run, fresh cache
    second = convert_once_per_machine(source)
    assert len(converted) == 1, "converted again"
    assert second.is_symlink() and second.resolve() == kept.resolve()
    assert gguf.converted_dir(source) == second  # a run in that session finds it where it looks

    source.write_bytes(b"other GGUF weights")  # another file: another key
    convert_once_per_machine(source)
    assert len(converted) == 2 and (machine / gguf.file_sha256(source)).is_dir()

    shutil.rmtree(machine)  # an empty machine cache: converted again, and kept again
    monkeypatch.setenv("WAPII_CACHE_DIR", str(tmp_path / "third-session"))
    convert_once_per_machine(source)
    assert len(converted) == 3 and (machine / gguf.file_sha256(source)).is_dir()
