"""Retrieved endpoints as TypeScript types (``-O rag_format=typescript``, the journal edition's format)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support import run_cli_in_process


@pytest.fixture(scope="module")
def demo():
    from wapii_core.datasets.loader import load_demo

    return load_demo()


def _docs(demo, *endpoints: tuple[str, str]):
    from wapii_core.generation.rag_docs import endpoint_docs
    from wapii_core.openapi.index import SpecIndex

    index = SpecIndex.load(demo.specs["larchwood"])
    docs = {(d.method, d.template): d for d in endpoint_docs(index)}
    return [docs[e] for e in endpoints], index


def test_an_endpoint_becomes_a_type_of_its_request_parts(demo) -> None:
    from wapii_core.generation.rag_typescript import typescript_block

    docs, index = _docs(demo, ("get", "/books/{bookId}"), ("post", "/books"))
    block = typescript_block(docs, index, "Larchwood Library")
    assert block.startswith("Useful endpoints of the OpenAPI specification of the Larchwood Library API, given as "
                            "TypeScript types:\n\n```typescript\n// GET https://api.larchwood-library.example/v2/books/{bookId}")
    assert block.endswith("\n```\n\n")
    assert "type GetBooksByBookId = {\n  path: {\n    bookId: string;\n  };" in block
    assert '    include?: Array<"copies" | "reviews" | "holds">;' in block
    assert '    "Accept-Language"?: string;' in block  # a name that is no identifier is quoted
    assert "type PostBooks = {\n  body: {\n    title: string;\n    subtitle?: string;" in block
    assert "contributors: Array<{\n      name: string;" in block


def test_the_types_are_cut_at_8000_characters(demo) -> None:
    from wapii_core.generation.rag_docs import endpoint_docs
    from wapii_core.generation.rag_typescript import HEADER, MAX_CHARS, typescript_block
    from wapii_core.openapi.index import SpecIndex

    index = SpecIndex.load(demo.specs["larchwood"])
    every = endpoint_docs(index)
    block = typescript_block(every, index, "X")
    types = block[len(HEADER.format(api="X")) + len("```typescript\n"):-len("\n```\n\n")]
    assert MAX_CHARS == 8000 and len(types) == 8000
    assert len(typescript_block(every[:1], index, "X")) < 8000


@pytest.mark.slow
def test_a_rag_run_shows_the_types_and_the_option_is_refused_elsewhere(tmp_path: Path) -> None:
    args = ["run", "--backend", "oracle", "--dataset", "demo", "--limit", "1", "--quiet"]
    done = run_cli_in_process(*args, "--setting", "rag", "-O", "rag_format=typescript", "--out", str(tmp_path / "ts"))
    assert done.returncode == 0, done
    prompt = json.loads((tmp_path / "ts" / "generations.jsonl").read_text().splitlines()[0])["prompt"]
    assert prompt.startswith("Useful endpoints of the OpenAPI specification of the Larchwood Library API, given as "
                             "TypeScript types:") and "```typescript\n// GET" in prompt
    refused = run_cli_in_process(*args, "-O", "rag_format=typescript", "--out", str(tmp_path / "no"))
    assert refused.returncode == 2 and refused.stderr.strip() == (
        "error: -O rag_format applies to the settings rag, constrained-rag, not 'unconstrained'")
    unknown = run_cli_in_process(*args, "--setting", "rag", "-O", "rag_format=yaml", "--out", str(tmp_path / "no"))
    assert unknown.returncode == 2 and "unknown -O rag_format=yaml (known: docs, typescript)" in unknown.stderr
