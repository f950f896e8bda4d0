"""What every adapter's sandboxed workers share: settings from the environment, and a pool that
starts in the background and can be cancelled.

Settings follow one scheme, ``WAPII_<ADAPTER>_<SETTING>`` with the adapter's name in capitals
(``WAPII_REQUESTS_PY_WORKERS``, ``WAPII_AXIOS_JS_TIMEOUT``): :func:`env_prefix`, :func:`worker_settings`.
:class:`LazyPool` holds an adapter's pool: made on first use, started in the background when a run
begins, and stopped on close (a close before a background start is under way cancels it).
"""

from __future__ import annotations

import logging
import os
import re
import threading
from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from wapii_core.base.errors import WapiiError

log = logging.getLogger("wapii.workers")

DEFAULT_TIMEOUT_S = 2.0
"""Seconds of wall time a call of a generated program gets unless told otherwise."""
RETIRED_ENV = {"WAPII_PYTHON_WORKERS": "WORKERS", "WAPII_PYTHON_TIMEOUT": "TIMEOUT"}
"""Variables no longer read (the Python adapters follow the scheme too): setting one draws a warning."""


def env_prefix(adapter: str) -> str:
    """``WAPII_<ADAPTER>``: the prefix of an adapter's environment variables (``requests_py`` → ``WAPII_REQUESTS_PY``)."""
    return "WAPII_" + re.sub(r"[^A-Z0-9]+", "_", adapter.upper())


def _env_number(name: str, kind: type, what: str) -> int | float | None:
    text = os.environ.get(name)
    if not text:
        return None
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or value <= 0:
        raise WapiiError(f"{name}={text!r}: expected {what}")
    return value


def worker_settings(prefix: str, workers: int | None, timeout_s: float | None, *,
                    default_timeout_s: float = DEFAULT_TIMEOUT_S) -> tuple[int | None, float]:
    """``workers`` (None: one per CPU) and ``timeout_s``, each from the argument when given, else from
    ``$<prefix>_WORKERS`` / ``$<prefix>_TIMEOUT``, else the default (``default_timeout_s`` seconds);
    a malformed variable is an :class:`InputError`."""
    for retired, setting in RETIRED_ENV.items():
        if os.environ.get(retired):
            log.warning("%s is no longer read: set %s_%s", retired, prefix, setting)
    env_workers = _env_number(f"{prefix}_WORKERS", int, "a whole number of workers above 0")
    env_timeout = _env_number(f"{prefix}_TIMEOUT", float, "seconds above 0")
    return workers or env_workers, timeout_s or env_timeout or default_timeout_s  # type: ignore[return-value]


C = TypeVar("C", bound="ClosedOnExit")


class ClosedOnExit:
    """A context manager whose exit calls :meth:`close` (the pools and adapters that hold workers)."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self: C) -> C:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class Pool(Protocol):
    def start(self) -> None: ...

    def close(self) -> None: ...


P = TypeVar("P", bound=Pool)


class LazyPool(Generic[P]):
    """The pool ``make()`` builds, made on first :meth:`get`, started in the background by
    :meth:`start_in_background`, stopped by :meth:`close` (and made again on the next :meth:`get`). Thread-safe."""

    def __init__(self, make: Callable[[], P], name: str) -> None:
        self._make, self._name = make, name
        self._pool: P | None = None
        self._lock = threading.Lock()
        self._closes = 0

    @property
    def current(self) -> P | None:
        """The pool if it has been made (and not closed since), else None."""
        return self._pool

    def get(self) -> P:
        """The pool, made now if need be."""
        with self._lock:
            return self._get_locked()

    def _get_locked(self) -> P:
        if self._pool is None:
            self._pool = self._make()
        return self._pool

    def start_in_background(self) -> None:
        """Makes and starts the pool on a thread of its own and returns at once; whatever fails there
        fails again, and is reported, on the next :meth:`get`'s use. A :meth:`close` before the start
        is under way cancels it."""
        closes = self._closes

        def start() -> None:
            with self._lock:
                if self._closes != closes:
                    return
                try:
                    self._get_locked().start()  # returns at once: the workers start on their own threads
                except Exception:  # noqa: BLE001 - the next use meets it again and reports it
                    pass

        threading.Thread(target=start, name=f"wapii-{self._name}-start", daemon=True).start()

    def close(self) -> None:
        """Stops the pool (a later :meth:`get` makes a new one) and cancels a background start not yet under way."""
        with self._lock:
            self._closes += 1
            if self._pool is not None:
                self._pool.close()
                self._pool = None
