"""The ``okhttp_java`` adapter: Java programs that call a web API through OkHttp 3.

OkHttp comes from Debian's ``libokhttp-java`` (``/usr/share/java/okhttp.jar`` and ``okio.jar``), which
the adapter declares in its capabilities: ``wapii setup`` installs it with apt when run as root, else
says in one line what to install. Nothing here reads the jars before they are needed, so the adapter can
be constructed (and listed, and set up) on a machine that does not have them yet.
"""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path
from typing import Callable

from wapii_core.api import AdapterCapabilities, WapiiError
from wapii_core.kits.jvm import JavaAdapterBase, JavaLibrary

from .program import PROGRAM

PACKAGE = "libokhttp-java"
JARS = (Path("/usr/share/java/okhttp.jar"), Path("/usr/share/java/okio.jar"))


def okhttp_jars() -> tuple[Path, ...]:
    """OkHttp's and Okio's jars (resolved), or a one-line error naming the package to install."""
    missing = [jar for jar in JARS if not jar.exists()]
    if missing:
        raise WapiiError(f"okhttp_java needs OkHttp ({missing[0]} is missing); install Debian's {PACKAGE} "
                         f"(apt-get install {PACKAGE})")
    return tuple(jar.resolve() for jar in JARS)


@functools.lru_cache(maxsize=None)
def okhttp_user_agent() -> str:
    """The ``User-Agent`` the installed OkHttp sends (``okhttp/3.13.1``), read from its ``Version`` class."""
    import re
    import zipfile

    with zipfile.ZipFile(JARS[0]) as jar:
        data = jar.read("okhttp3/internal/Version.class")
    found = re.search(rb"okhttp/[0-9][0-9A-Za-z.+-]*", data)
    return found.group().decode("ascii") if found else "okhttp/3"


def _defaults() -> dict[str, str]:
    return {"User-Agent": okhttp_user_agent(), "Accept-Encoding": "gzip", "Connection": "Keep-Alive"}


class OkHttpAdapter(JavaAdapterBase):
    """Prompt, extraction, sandboxed execution (one JVM per program), normalisation and rendering for
    OkHttp 3. Judged by default in ``wire`` mode. No constrained decoding: ``--setting constrained``
    is refused."""

    name = "okhttp_java"
    title = "OkHttp"
    program = PROGRAM
    methods = ("newCall",)
    capabilities = AdapterCapabilities(language="java", library="OkHttp", single_call=False, constrained=False,
                                       modes=("wire",), wire_capture=True, answers=True, workflows=True,
                                       system_packages=(PACKAGE,))

    def java_library(self) -> JavaLibrary:
        warmup = resources.files("wapii_okhttp_java").joinpath("Warmup.java").read_text(encoding="utf-8")
        return JavaLibrary(self.name, okhttp_jars(), warmup)

    def own_headers(self) -> Callable[[], dict[str, str]]:
        return _defaults

    def setup(self) -> None:
        """Checks OkHttp's jars (``wapii setup`` installed ``libokhttp-java`` before, where it could), then
        the JDK, and builds the class archive."""
        okhttp_jars()
        super().setup()
