"""The model kit: what every model backend shares.

Decoding options (``-O``), chat messages and the answer turned back into a program, the rule that
stops generation once a call is complete, the generation cache, and one-line error text.

Names are imported on first use (:func:`wapii_core.base.lazy.lazy_exports`): ``from
wapii_core.kits.models import X`` costs only the modules X needs. :data:`KIT_VERSION` versions this
kit's names the semver way, apart from the plugin API's ``API_VERSION`` (``docs/changelog.md``).
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

KIT_VERSION = "1.0"
"""This kit's version, ``MAJOR.MINOR``: MINOR grows when names are added, MAJOR when one is
removed or changes incompatibly."""

_WHERE: dict[str, str] = {
    # Decoding options.
    "DecodingOptions": "wapii_core.generation.options",
    "parse_options": "wapii_core.generation.options",
    # Prompts to model input, answers to programs.
    "STOP": "wapii_core.generation.programs",
    "is_chat_model": "wapii_core.generation.programs",
    "chat_messages": "wapii_core.generation.programs",
    "with_extra_instructions": "wapii_core.generation.programs",
    "prefill_messages": "wapii_core.generation.programs",
    "model_input": "wapii_core.generation.programs",
    "cut_at_stop": "wapii_core.generation.programs",
    "continuation_program": "wapii_core.generation.programs",
    "chat_program": "wapii_core.generation.programs",
    # Stopping once the call is complete.
    "call_complete_predicate": "wapii_core.generation.call_stop",
    "brackets_balance": "wapii_core.generation.call_stop",
    # The generation cache.
    "GenerationCache": "wapii_core.generation.gencache",
    "CachedAnswer": "wapii_core.generation.gencache",
    "cache_key": "wapii_core.generation.gencache",
    # One-line text (error messages, stored details).
    "shortened_line": "wapii_core.base.text",
}
"""Where each name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "KIT_VERSION"])

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.kits.models has no {name!r}")
