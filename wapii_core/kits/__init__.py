"""Kits: versioned facades over the core's machinery, one per kind, for plugins to build on.

The plugin API (:mod:`wapii_core.api`) is the small face every plugin meets: records, protocols,
errors, ``hookimpl``. What an adapter or a backend builds on is in one kit each:

- :mod:`wapii_core.kits.node`: JavaScript (Node.js) adapters;
- :mod:`wapii_core.kits.python`: Python HTTP adapters;
- :mod:`wapii_core.kits.jvm`: Java adapters;
- :mod:`wapii_core.kits.sandbox`: running and compiling untrusted programs (the Go adapter);
- :mod:`wapii_core.kits.wire`: requests as bytes (wire mode) and the mock's exchanges;
- :mod:`wapii_core.kits.grammar`: constrained decoding's building blocks;
- :mod:`wapii_core.kits.models`: what model backends share;
- :mod:`wapii_core.kits.prompts`: the wording every adapter shares (code context, workflows);
- :mod:`wapii_core.kits.files`: caches and files.

Each kit has its own ``KIT_VERSION`` and ``__all__``; its names are imported on first use. The core's
own modules never import a kit (kits are faces for plugins only; ``tests/test_layout.py``).
"""

from __future__ import annotations

KITS = ("wire", "grammar", "sandbox", "node", "python", "jvm", "models", "prompts", "files")
"""Every kit, by module name under ``wapii_core.kits``."""
