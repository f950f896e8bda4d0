"""Swagger 2.0 descriptions read as OpenAPI 3.0: converted on load by swagger2openapi, cached by content.

A spec whose top level has ``swagger`` (and no ``openapi``) is handed, as JSON, to
``wapii_core/swagger2_npm/convert.js``: Node.js running swagger2openapi (pinned by that directory's
``package-lock.json``, installed once into ``<wapii cache>/swagger2/<sha256 of the lock>`` with
``npm ci``, :func:`wapii_core.base.node_tools.ensure_packages`), with ``patch`` on (the small
errors real descriptions have are fixed, as ``swagger2openapi --patch`` does), external
references left as they are (wapii then refuses them) and no network access. Everything downstream
(index, validation, grammars, retrieval) reads the converted document; the converter maps Swagger's
``host`` / ``basePath`` / ``schemes`` to ``servers``, ``body`` and ``formData`` parameters to a
``requestBody`` under each ``consumes`` media type, ``collectionFormat`` to ``style`` / ``explode``,
and ``definitions`` to ``components/schemas``, which is how judging then reads them.

The spec file is the user's input, not generated code, so Node runs outside the sandbox. The
converted document is cached per user by the source's sha256 and the converter's lock
(:mod:`wapii_core.openapi.cache`), so Node runs once per description. Where conversion is not possible
(no Node.js or npm, the install or the converter failing) the spec is refused with one line.

What is derived from a spec (index, grammars, retrieval) is cached by the *source's* sha256, so a
new converter lock must come with new cache formats of those (or a cleared cache).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import wapii_core.openapi.cache as spec_cache
from wapii_core.base.errors import InputError, MissingToolError, WapiiError
from wapii_core.base.text import shortened

CONVERTER = "swagger2openapi 7.0.8"
"""The converter and its version (pinned with its dependencies by ``package-lock.json``)."""
FORMAT = 1
"""Version of the cached converted documents' layout."""
TIMEOUT_S = 300


def is_swagger2(document: Any) -> bool:
    """Whether ``document`` is a Swagger 2.0 description (a ``swagger`` field and no ``openapi``)."""
    return isinstance(document, dict) and "swagger" in document and "openapi" not in document


def converted(path: Path, sha256: str, document: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI 3.0 form of the Swagger 2.0 ``document`` parsed from ``path`` (content ``sha256``).

    Raises :class:`InputError` naming ``path`` when it cannot be converted (see the module docstring).
    """
    from wapii_core.base.node_tools import lock_digest_of

    source = _source_dir()
    kind = f"openapi3-from-swagger2-{lock_digest_of(source)}"
    cached = spec_cache.read(sha256, kind, FORMAT)
    if isinstance(cached, dict):
        return cached
    data = _convert(path, source, document)
    spec_cache.write(sha256, kind, FORMAT, data, tree=True)  # parsed from JSON: a tree
    return data


def _convert(path: Path, source: Path, document: dict[str, Any]) -> dict[str, Any]:
    import subprocess

    from wapii_core.base.node_tools import ensure_packages, find_node, node_tool_env

    what = f"a Swagger description (read as OpenAPI 3 by converting it with {CONVERTER} on Node.js)"
    yourself = f"(or convert it yourself: `npx swagger2openapi {path.name} -o {path.stem}.openapi3.yaml`)"
    try:
        node = find_node()
    except MissingToolError:
        raise InputError(path, f"{what}, but Node.js (18 or newer) was not found: install it or set "
                               f"WAPII_NODE {yourself}") from None
    try:
        packages = ensure_packages("swagger2", source, CONVERTER)
    except WapiiError as exc:
        raise InputError(path, f"{what}, but the converter could not be installed: {exc} {yourself}") from None
    try:
        done = subprocess.run([node, str(source / "convert.js")], cwd=packages,
                              env={**node_tool_env(), "NODE_PATH": str(packages / "node_modules")},
                              input=json.dumps(document, default=str).encode(), capture_output=True,
                              timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise InputError(path, f"{what}, but the conversion did not finish in {TIMEOUT_S} s {yourself}") from None
    if done.returncode != 0:
        lines = [line.strip() for line in done.stderr.decode("utf-8", "replace").splitlines() if line.strip()]
        why = next((line for line in lines if "Error" in line), lines[0] if lines else f"exit {done.returncode}")
        raise InputError(path, f"{what} that the converter refuses: {shortened(why, 300)}")
    data = json.loads(done.stdout)
    if not isinstance(data, dict):
        raise InputError(path, f"{what}, but the converter gave no document")
    return data


def _source_dir() -> Path:
    from importlib import resources

    return Path(str(resources.files("wapii_core") / "swagger2_npm"))


