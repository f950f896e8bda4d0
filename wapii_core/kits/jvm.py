"""The Java (JVM) kit: what an adapter for a Java HTTP library builds on.

The JDK, Java source (extraction of a call, string literals), the sandboxed JVM runner behind the
shared adapter base (a library is a :class:`JavaLibrary` record plus its :class:`JavaProgram`
expressions).

Names are imported on first use (:func:`wapii_core.base.lazy.lazy_exports`): ``from
wapii_core.kits.jvm import X`` costs only the modules X needs. :data:`KIT_VERSION` versions this
kit's names the semver way, apart from the plugin API's ``API_VERSION`` (``docs/changelog.md``).
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

KIT_VERSION = "1.0"
"""This kit's version, ``MAJOR.MINOR``: MINOR grows when names are added, MAJOR when one is
removed or changes incompatibly."""

_WHERE: dict[str, str] = {
    # The adapter base and the library records.
    "JavaAdapterBase": "wapii_core.jvm.adapter",
    "JavaLibrary": "wapii_core.jvm.support",
    "JavaProgram": "wapii_core.jvm.program",
    # Java source.
    "extract_java_call": "wapii_core.jvm.javasource",
    "java_string": "wapii_core.jvm.javasource",
    "program_source": "wapii_core.jvm.javasource",
    "tokens": "wapii_core.jvm.javasource",
    "java_body_text": "wapii_core.jvm.render",
    "java_header_text": "wapii_core.jvm.render",
    # The JDK.
    "find_jdk": "wapii_core.jvm.toolchain",
    "find_runtime": "wapii_core.jvm.toolchain",
    "RUNTIME_VARIABLE": "wapii_core.jvm.toolchain",
}
"""Where each name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "KIT_VERSION"])

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.kits.jvm has no {name!r}")
