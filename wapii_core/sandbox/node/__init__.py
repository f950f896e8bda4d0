"""The sandboxed JavaScript runtime: Node workers that run generated calls of any JavaScript library.

An adapter describes its library with a :class:`NodeLibrary` (npm packages, the hook that sets the
library up in each run and records the requests it sends, the prelude the program sees); the
runtime installs the packages (:func:`ensure_runtime`), runs the calls in a pool of sandboxed
workers (:class:`NodeRunner` starts one on first use: :class:`NodePool`: bubblewrap or Landlock, an unprivileged user, rlimits, Node's
permission model, one fresh ``vm`` context per call) and checks each answer against the adapter's
record schema (:func:`to_capture`). Everything a program sees is of its own context; the capture kit
(``js/realm/``) records what the library sent with intrinsics saved before the program ran.
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

_WHERE = {
    "NodeLibrary": "library", "RUNTIME_PACKAGES": "library",
    "ensure_runtime": "env", "find_node": "env", "find_npm": "env", "js_dir": "env", "lock_digest": "env",
    "NodePool": "pool", "node_features": "pool", "NodeRunner": "runner",
    "to_capture": "answer", "BAD_CAPTURE": "answer",
}
"""Where each public name lives (imported on first use)."""

__all__ = sorted(_WHERE)


__getattr__ = lazy_exports(__name__, {name: f".{module}" for name, module in _WHERE.items()})[0]
