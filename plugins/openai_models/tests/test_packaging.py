"""What the installed plugin holds: the backend, and none of the tests' fake server."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parents[1]
PACKAGE = PLUGIN / "wapii_openai_models"
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py"))


def test_importing_every_module_of_the_plugin_pulls_in_no_test_support(tmp_path):
    """Run outside the repository, with nothing of ``tests/`` on the path, as an installed plugin is."""
    script = ("import importlib, importlib.util, sys\n"
              f"for name in {MODULES!r}:\n"
              "    importlib.import_module('wapii_openai_models.' + name)\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('fake_openai', 'support', 'tests')))\n"
              "print(importlib.util.find_spec('fake_openai'))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\nNone\n"
    assert "backend" in MODULES and "client" in MODULES


@pytest.mark.slow
def test_the_built_wheel_holds_the_plugins_modules_and_no_test_double(tmp_path):
    """Built from a clean copy of the plugin (a stale ``build/`` could otherwise ship a removed module)."""
    source = tmp_path / "src"
    shutil.copytree(PLUGIN, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", "tests"))
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                           "--disable-pip-version-check", "-w", str(tmp_path / "dist"), str(source)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (wheel,) = (tmp_path / "dist").glob("wapii_openai_models-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        modules = sorted(n.removeprefix("wapii_openai_models/").removesuffix(".py") for n in names
                         if n.startswith("wapii_openai_models/"))
        sources = {n: archive.read(n).decode("utf-8") for n in names if n.endswith(".py")}
    assert modules == MODULES
    assert not [n for n in names if "testing" in n or "fake" in n]
    assert not [n for n, text in sources.items() if "fake_openai" in text or "OpenAIServer" in text]
