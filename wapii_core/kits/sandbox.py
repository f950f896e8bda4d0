"""The sandbox kit: running and compiling untrusted generated programs (used by the Go adapter).

The isolation a program runs under, the settings a sandboxed worker reads, a pool of compiled
programs, and compilation as untrusted work under a budget (memory, a share of time) with the
search that isolates the programs a failing batch compilation is due to.

Names are imported on first use (:func:`wapii_core.base.lazy.lazy_exports`): ``from
wapii_core.kits.sandbox import X`` costs only the modules X needs. :data:`KIT_VERSION` versions this
kit's names the semver way, apart from the plugin API's ``API_VERSION`` (``docs/changelog.md``).
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

KIT_VERSION = "1.0"
"""This kit's version, ``MAJOR.MINOR``: MINOR grows when names are added, MAJOR when one is
removed or changes incompatibly."""

_WHERE: dict[str, str] = {
    # Isolation and worker settings.
    "Isolation": "wapii_core.sandbox",
    "env_prefix": "wapii_core.base.workers",
    "worker_settings": "wapii_core.base.workers",
    "MissingToolError": "wapii_core.base.errors",
    # Compiled programs.
    "ProgramPool": "wapii_core.sandbox",
    "ProgramResult": "wapii_core.sandbox",
    "CompileBudget": "wapii_core.sandbox.compile_budget",
    "CompilerRun": "wapii_core.sandbox.compile_budget",
    "CompileAttempt": "wapii_core.sandbox.compile_budget",
    "run_compiler": "wapii_core.sandbox.compile_budget",
    "isolate_failures": "wapii_core.sandbox.compile_budget",
}
"""Where each name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "KIT_VERSION"])

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.kits.sandbox has no {name!r}")
