"""A response cache for model backends: SQLite under ``<cache>/generations.sqlite``.

A backend computes a key from everything that determines a model's answer (see :func:`cache_key`),
asks the cache before calling the model, and stores every answer it gets. A rerun of a finished
run, even into a fresh run directory, then makes no model call at all.

What is stored is the model's *raw answer* (the completion or chat reply as the model gave it) and
its finish reason, not the post-processed program: a fix to post-processing applies to cached
answers too. Failed calls are never stored, so they are retried.

Several processes may share the file (a run on each GPU, parallel test workers): the database runs
in WAL mode with a busy timeout, every write is one short transaction, and a row is only ever
inserted or replaced with an identical answer for its key.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterable, Mapping

from pydantic import BaseModel

from wapii_core.base.paths import cache_dir

FILE_NAME = "generations.sqlite"
SCHEMA = 1
BUSY_TIMEOUT_S = 60.0

_CREATE = """
CREATE TABLE IF NOT EXISTS answers (
    key TEXT PRIMARY KEY,
    text TEXT NOT NULL,
    finish_reason TEXT NOT NULL,
    created REAL NOT NULL
)
"""


class CachedAnswer(BaseModel):
    """One stored model answer."""

    text: str
    finish_reason: str = "stop"


def cache_key(**parts: Any) -> str:
    """A stable hex digest of ``parts`` (JSON-serialisable values; key order does not matter)."""
    blob = json.dumps({"schema": SCHEMA, **parts}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def default_path() -> Path:
    return cache_dir() / FILE_NAME


class GenerationCache:
    """The answers of earlier model calls, by :func:`cache_key`.

    ``enabled=False`` (the backends' ``no_cache`` option) makes a cache that neither reads nor
    writes, so every answer comes from the model. Safe to use from several threads.
    """

    def __init__(self, path: Path | None = None, *, enabled: bool = True) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.enabled = enabled
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, check_same_thread=False,
                                   isolation_level=None)  # autocommit: each statement is its own transaction
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute(_CREATE)
            self._conn = conn
        return self._conn

    def get(self, key: str) -> CachedAnswer | None:
        """The stored answer for ``key``, or None."""
        return self.get_many([key]).get(key)

    def get_many(self, keys: Iterable[str]) -> dict[str, CachedAnswer]:
        """The stored answers among ``keys``."""
        wanted = list(dict.fromkeys(keys))
        if not self.enabled or not wanted:
            return {}
        found: dict[str, CachedAnswer] = {}
        with self._lock:
            conn = self._connection()
            for start in range(0, len(wanted), 500):  # stay under SQLite's host-parameter limit
                part = wanted[start:start + 500]
                marks = ",".join("?" * len(part))
                for key, text, reason in conn.execute(
                        f"SELECT key, text, finish_reason FROM answers WHERE key IN ({marks})", part):
                    found[key] = CachedAnswer(text=text, finish_reason=reason)
        return found

    def put(self, key: str, answer: CachedAnswer) -> None:
        """Store one answer (replacing an older one for the same key)."""
        self.put_many({key: answer})

    def put_many(self, answers: Mapping[str, CachedAnswer]) -> None:
        """Store several answers in one transaction."""
        if not self.enabled or not answers:
            return
        now = time.time()
        rows = [(key, a.text, a.finish_reason, now) for key, a in answers.items()]
        with self._lock:
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executemany("INSERT OR REPLACE INTO answers (key, text, finish_reason, created) "
                                 "VALUES (?, ?, ?, ?)", rows)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def __len__(self) -> int:
        if not self.enabled:
            return 0
        with self._lock:
            return int(self._connection().execute("SELECT COUNT(*) FROM answers").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def __enter__(self) -> "GenerationCache":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
