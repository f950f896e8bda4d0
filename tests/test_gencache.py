"""The shared response cache: keys, round trips, the disabled cache, concurrent writers."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
from pathlib import Path

from wapii_core.generation.gencache import CachedAnswer, GenerationCache, cache_key, default_path


def test_key_is_stable_order_independent_and_sensitive_to_every_part():
    base = cache_key(backend="hf", model="m", input="p", params={"t": 0, "k": 50}, draw=0)
    assert base == cache_key(draw=0, params={"k": 50, "t": 0}, input="p", model="m", backend="hf")
    variants = [
        cache_key(backend="openai", model="m", input="p", params={"t": 0, "k": 50}, draw=0),
        cache_key(backend="hf", model="m2", input="p", params={"t": 0, "k": 50}, draw=0),
        cache_key(backend="hf", model="m", input="p ", params={"t": 0, "k": 50}, draw=0),
        cache_key(backend="hf", model="m", input="p", params={"t": 0.2, "k": 50}, draw=0),
        cache_key(backend="hf", model="m", input="p", params={"t": 0, "k": 50}, draw=1),
    ]
    assert len({base, *variants}) == 6


def test_round_trip_survives_reopening(tmp_path):
    path = tmp_path / "c.sqlite"
    with GenerationCache(path) as cache:
        cache.put("a", CachedAnswer(text="get('x')", finish_reason="stop"))
        cache.put_many({"b": CachedAnswer(text="ü\n```", finish_reason="length")})
        assert cache.get("missing") is None
    with GenerationCache(path) as cache:
        assert cache.get("a") == CachedAnswer(text="get('x')", finish_reason="stop")
        assert cache.get_many(["a", "b", "c"]) == {
            "a": CachedAnswer(text="get('x')", finish_reason="stop"),
            "b": CachedAnswer(text="ü\n```", finish_reason="length"),
        }
        assert len(cache) == 2
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode.lower() == "wal"


def test_many_keys_in_one_lookup(tmp_path):
    with GenerationCache(tmp_path / "c.sqlite") as cache:
        cache.put_many({f"k{i}": CachedAnswer(text=str(i)) for i in range(1200)})
        found = cache.get_many([f"k{i}" for i in range(0, 1300, 1)])
        assert len(found) == 1200 and found["k1199"].text == "1199"


def test_disabled_cache_neither_reads_nor_writes(tmp_path):
    path = tmp_path / "c.sqlite"
    with GenerationCache(path) as cache:
        cache.put("a", CachedAnswer(text="x"))
    with GenerationCache(path, enabled=False) as off:
        assert off.get("a") is None
        off.put("b", CachedAnswer(text="y"))
        assert len(off) == 0
    with GenerationCache(path) as cache:
        assert cache.get("b") is None and cache.get("a") is not None


def test_default_path_is_under_the_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("WAPII_CACHE_DIR", str(tmp_path))
    assert default_path() == tmp_path / "generations.sqlite"


def _writer(path: str, worker: int, count: int) -> None:
    with GenerationCache(Path(path)) as cache:
        for i in range(count):
            cache.put(f"w{worker}-{i}", CachedAnswer(text=f"{worker}:{i}"))
            cache.get(f"w{(worker + 1) % 4}-{i}")  # readers interleave with the other writers


def test_concurrent_writer_processes_lose_nothing(tmp_path):
    path = tmp_path / "c.sqlite"
    GenerationCache(path).close()
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(path), w, 150)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0, 0, 0]
    with GenerationCache(path) as cache:
        assert len(cache) == 600
        assert cache.get("w3-149") == CachedAnswer(text="3:149")


def test_threads_share_one_cache(tmp_path):
    with GenerationCache(tmp_path / "c.sqlite") as cache:
        def work(n: int) -> None:
            for i in range(100):
                cache.put(f"t{n}-{i}", CachedAnswer(text="x"))
                cache.get(f"t{n}-{i}")

        threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(cache) == 800
