"""Which isolation layers are active here, a warning (once) for those that are not, and the
``--require-isolation`` switch that turns that warning into a refusal.

Each pool (Node or Python workers) asks for an :class:`Isolation` report before it starts workers
and passes it to :func:`enforce`: with every layer active nothing happens; otherwise, if isolation
is required (:func:`set_require_isolation`, or ``WAPII_REQUIRE_ISOLATION=1``), it raises
:class:`IsolationError`, else it prints one warning per missing layer and process on stderr,
naming what is not isolated, and the pool runs with the remaining layers.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from typing import Iterator
from dataclasses import dataclass, field

from wapii_core.base.errors import WapiiError

REQUIRE_ENV = "WAPII_REQUIRE_ISOLATION"


class IsolationError(WapiiError):
    """Isolation is required but a layer is unavailable here."""


@dataclass(frozen=True)
class Layer:
    """One isolation layer: whether it is active here and, if not, why and what that leaves open."""

    name: str
    active: bool
    detail: str  # what it does when active, or why it is not
    exposes: str = ""  # what is not isolated while it is inactive


@dataclass
class Isolation:
    """The layers protecting one kind of worker (``"node"`` or ``"python"``)."""

    kind: str
    layers: list[Layer] = field(default_factory=list)

    def missing(self) -> list[Layer]:
        return [layer for layer in self.layers if not layer.active]

    def as_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "layers": [{"name": l.name, "active": l.active, "detail": l.detail,
                                                **({"exposes": l.exposes} if not l.active else {})}
                                               for l in self.layers]}


_warned: set[tuple[str, str]] = set()
_warned_lock = threading.Lock()
_required: bool | None = None


def set_require_isolation(required: bool) -> None:
    """Makes :func:`enforce` refuse (True) or warn (False) for the rest of this process."""
    global _required
    _required = required
    os.environ[REQUIRE_ENV] = "1" if required else "0"


@contextlib.contextmanager
def isolation_scope() -> Iterator[None]:
    """One command's isolation settings: the once-per-layer warnings are given afresh inside, and
    what held before (:func:`set_require_isolation`, ``WAPII_REQUIRE_ISOLATION``, the warnings given)
    holds again after, so that commands run one after another in one process do not inherit each
    other's ``--require-isolation``."""
    global _required, _warned
    saved = _required, os.environ.get(REQUIRE_ENV), _warned
    with _warned_lock:
        _warned = set()
    try:
        yield
    finally:
        with _warned_lock:
            _required, environ, _warned = saved
        if environ is None:
            os.environ.pop(REQUIRE_ENV, None)
        else:
            os.environ[REQUIRE_ENV] = environ


def isolation_required() -> bool:
    if _required is not None:
        return _required
    return os.environ.get(REQUIRE_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def enforce(isolation: Isolation) -> None:
    """Refuses (:class:`IsolationError`) or warns once per missing layer, as configured."""
    missing = isolation.missing()
    if not missing:
        return
    if isolation_required():
        reasons = "; ".join(f"{layer.name}: {layer.detail}" for layer in missing)
        raise IsolationError(f"full isolation of the {isolation.kind} workers is required (--require-isolation) "
                             f"but not available here: {reasons}")
    with _warned_lock:
        fresh = [layer for layer in missing if (isolation.kind, layer.name) not in _warned]
        _warned.update((isolation.kind, layer.name) for layer in fresh)
    for layer in fresh:
        print(f"warning: {isolation.kind} sandbox without {layer.name} ({layer.detail}): not isolated: "
              f"{layer.exposes}. Pass --require-isolation to refuse instead.", file=sys.stderr)
