"""``scripts/compile_bytecode.py``: the install byte-compiles what the commands import, not torch."""

from __future__ import annotations

import importlib.util

from support import REPO


def script():
    spec = importlib.util.spec_from_file_location("compile_bytecode", REPO / "scripts" / "compile_bytecode.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_install_compiles_wapii_its_plugins_and_their_dependencies_but_not_torch():
    module = script()
    found = {module._key(d.metadata["Name"]): d for d in module.distributions()}
    assert {"wapii", "wapii-axios-js", "typer", "pydantic", "jsonschema", "openapi-schema-validator"} <= set(found)
    assert "torch" not in found
    sources = module.sources(found["typer"])
    assert any(path.name == "main.py" and path.parent.name == "typer" for path in sources)
