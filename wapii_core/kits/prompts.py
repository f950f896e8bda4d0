"""The prompt kit: the wording every adapter shares, whatever its language.

Tasks inside real code (the journal edition's real-world dataset: the starter, the prompt, the
template URL) and workflow tasks (the starter and the prompt every adapter words alike, with its
library's own notes).

Names are imported on first use (:func:`wapii_core.base.lazy.lazy_exports`): ``from
wapii_core.kits.prompts import X`` costs only the modules X needs. :data:`KIT_VERSION` versions this
kit's names the semver way, apart from the plugin API's ``API_VERSION`` (``docs/changelog.md``).
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

KIT_VERSION = "1.0"
"""This kit's version, ``MAJOR.MINOR``: MINOR grows when names are added, MAJOR when one is
removed or changes incompatibly."""

_WHERE: dict[str, str] = {
    # Tasks inside real code.
    "context_prompt": "wapii_core.generation.code_context",
    "context_starter": "wapii_core.generation.code_context",
    "context_template": "wapii_core.generation.code_context",
    # Workflow tasks.
    "workflow_prompt": "wapii_core.generation.workflow_prompt",
    "workflow_starter": "wapii_core.generation.workflow_prompt",
}
"""Where each name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "KIT_VERSION"])

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.kits.prompts has no {name!r}")
