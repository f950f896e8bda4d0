"""The viewer's page ships whole in the wheel and needs nothing from the network: every asset is
package data, every vendored library has its licence beside it, and the page's own files name no
address outside the bundle."""

from __future__ import annotations

import fnmatch
import re

import pytest

from support import REPO

ASSETS = REPO / "wapii_core" / "view" / "assets"


def test_every_asset_is_package_data() -> None:
    tomllib = pytest.importorskip("tomllib", reason="Python 3.11's tomllib reads pyproject.toml")
    patterns = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["wapii_core"]
    files = [p.relative_to(REPO / "wapii_core").as_posix() for p in ASSETS.rglob("*") if p.is_file()]
    assert files
    missing = [f for f in files if not any(fnmatch.fnmatch(f, pattern) and f.count("/") == pattern.count("/")
                                           for pattern in patterns)]
    assert not missing, f"not in [tool.setuptools.package-data]: {missing}"


def test_each_vendored_library_has_its_licence() -> None:
    vendor = ASSETS / "vendor"
    libraries = {p.name.split(".")[0].split("-")[0] for p in vendor.iterdir() if p.suffix in (".js", ".css")}
    assert libraries == {"diff", "highlight", "hyperlist"}
    for name in libraries:
        assert (vendor / f"{name}.LICENSE").read_text().strip(), name


def test_the_page_names_no_address_outside_the_bundle() -> None:
    html = (ASSETS / "index.html").read_text()
    referenced = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert referenced and all(r.startswith(("assets/", "#")) or r == "data:," for r in referenced), referenced
    assert all((ASSETS.parent / r).is_file() for r in referenced if r.startswith("assets/"))
    for own in ("viewer.js", "filter.js", "viewer.css"):
        text = (ASSETS / own).read_text()
        assert not re.search(r"https?://|//[a-z0-9.-]+\.[a-z]{2,}/", text, re.I), own
        assert "fetch(" not in text and "XMLHttpRequest" not in text, own
