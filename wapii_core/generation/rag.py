"""Retrieval-augmented prompts: the documentation of the endpoints most relevant to a task, prepended.

:class:`Retriever` indexes the endpoint documentation of one spec (:mod:`wapii_core.generation.rag_docs`) with
BM25 (``bm25s``; English stop words, Snowball stemming through PyStemmer, identifiers split into
words) and returns the ``k`` best endpoints for a task. :func:`augment` puts their documentation in
front of a prompt, at most ``max_chars`` characters of it (whole endpoints only, best first), so
the prompt still ends with the starter code. Retrievers are kept per spec file content in process.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wapii_core.base.model import Prompt, Sample
from wapii_core.generation.rag_docs import CACHE_FORMAT as DOCS_FORMAT
from wapii_core.generation.rag_docs import EndpointDoc, endpoint_docs
from wapii_core.openapi.index import SpecIndex

if TYPE_CHECKING:
    from wapii_core.base.protocols import Dataset

WORDS_FORMAT = 1
"""Version of the cached BM25 tokens (bumped whenever tokenising or the indexed text changes)."""
DEFAULT_K = 5
DEFAULT_MAX_CHARS = 4000
RAG_SETTINGS = ("rag", "constrained-rag")
"""The run settings whose prompts carry retrieved documentation."""
HEADER = "Documentation of the {api} API endpoints most relevant to the task:\n\n"

_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_retrievers: dict[str, "Retriever"] = {}
_lock = threading.Lock()


def _prepare(text: str) -> str:
    """Identifiers split into words (``setTopic`` → ``set Topic``, ``user_gid`` → ``user gid``)."""
    return _CAMEL.sub(r"\1 \2", text).replace("_", " ").replace(".", " ")


def _stemmer() -> Any:
    try:
        import Stemmer
    except ImportError:  # PyStemmer missing: plain words
        return None
    return Stemmer.Stemmer("english")


class Retriever:
    """BM25 over one spec's endpoint documentation."""

    def __init__(self, docs: list[EndpointDoc], words: list[list[str]] | None = None) -> None:
        """``words``: each document's tokens as :meth:`words` gives them (computed when None)."""
        import bm25s

        self.docs = docs
        self._stem = _stemmer()
        self._bm25 = bm25s.BM25()
        self._bm25.index(words if words is not None else self.words(docs), show_progress=False)

    def words(self, docs: list[EndpointDoc]) -> list[list[str]]:
        """Each document's indexed text as BM25 tokens (stemmed, stop words left out)."""
        tokens = self._tokens([d.text for d in docs])
        vocab = {i: w for w, i in tokens.vocab.items()}
        return [[vocab[i] for i in row] for row in tokens.ids]

    @classmethod
    def for_spec(cls, spec: Path | str | SpecIndex) -> "Retriever":
        """The retriever of a spec file (built once per file content; its documents' tokens cached on
        disk by the spec's sha256, next to the documentation)."""
        import wapii_core.openapi.cache as spec_cache

        index = spec if isinstance(spec, SpecIndex) else SpecIndex.load(spec)
        with _lock:
            found = _retrievers.get(index.sha256)
        if found is None:
            docs = endpoint_docs(index)
            kind = f"bm25-words-{'stemmed' if _stemmer() is not None else 'plain'}"
            version = WORDS_FORMAT * 1000 + DOCS_FORMAT  # the tokens of the text of that documentation
            words = spec_cache.read(index.sha256, kind, version)
            if not (isinstance(words, list) and len(words) == len(docs)
                    and all(isinstance(row, list) and all(isinstance(w, str) for w in row) for row in words)):
                words = None
            found = cls(docs, words)
            if words is None:
                spec_cache.write(index.sha256, kind, version, found.words(docs), tree=True)
            with _lock:
                _retrievers[index.sha256] = found
        return found

    def _tokens(self, texts: list[str]) -> Any:
        import bm25s

        return bm25s.tokenize([_prepare(t) for t in texts], stopwords="en", stemmer=self._stem, show_progress=False)

    def search(self, query: str, k: int = DEFAULT_K) -> list[EndpointDoc]:
        """The ``k`` endpoints most relevant to ``query``, best first."""
        return self.search_many([query], k)[0]

    def search_many(self, queries: list[str], k: int = DEFAULT_K) -> list[list[EndpointDoc]]:
        """:meth:`search` for several queries at once (faster than one by one)."""
        k = min(k, len(self.docs))
        if not queries or k == 0:
            return [[] for _ in queries]
        tokens = self._tokens(queries)
        if self._bm25.vocab_dict:  # words the index has never seen cannot match: keep only known ones
            known = set(self._bm25.vocab_dict)
            ids, vocab = tokens.ids, {i: w for w, i in tokens.vocab.items()}
            tokens = [[vocab[i] for i in row if vocab[i] in known] for row in ids]
        results, _ = self._bm25.retrieve(tokens, k=k, show_progress=False, n_threads=0)
        return [[self.docs[int(i)] for i in row] for row in results]


def documentation(docs: list[EndpointDoc], api: str, max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """The block put in front of a prompt: a header and whole endpoint docs, at most ``max_chars``."""
    out = HEADER.format(api=api)
    shown = 0
    for doc in docs:
        if len(out) + len(doc.shown) + 2 > max_chars and shown:
            break
        out += doc.shown[: max(0, max_chars - len(out) - 2)] + "\n\n"
        shown += 1
    return out


RAG_FORMATS = ("docs", "typescript")
"""How retrieved endpoints are shown (``-O rag_format=``): wapii's documentation excerpts, or the
journal edition's TypeScript types (:mod:`wapii_core.generation.rag_typescript`)."""


def augment(prompt: Prompt, task: str, spec: Path | str | SpecIndex, api: str, *, k: int = DEFAULT_K,
            max_chars: int = DEFAULT_MAX_CHARS, rag_format: str = "docs") -> Prompt:
    """``prompt`` with the documentation of the ``k`` endpoints most relevant to ``task`` in front
    (``rag_format="typescript"``: as TypeScript types, cut at their own limit)."""
    index = spec if isinstance(spec, SpecIndex) else SpecIndex.load(spec)
    found = Retriever.for_spec(index).search(task, k)
    if rag_format == "typescript":
        from wapii_core.generation.rag_typescript import typescript_block

        block = typescript_block(found, index, api)
    else:
        block = documentation(found, api, max_chars)
    return Prompt(text=block + prompt.text, starter=prompt.starter, instructions=block + prompt.instructions,
                  call_start=prompt.call_start)


def setting_prompt(prompt: Prompt, sample: Sample, dataset: Dataset, setting: str, rag_format: str = "docs") -> Prompt:
    """The prompt a run in ``setting`` sends for ``sample``: augmented in the rag settings, with the
    whole spec in the spec setting (:mod:`wapii_core.generation.spec_prompt`), else as it is."""
    from wapii_core.generation.spec_prompt import SPEC_SETTINGS, with_spec

    if setting in SPEC_SETTINGS:
        return with_spec(prompt, dataset.specs[sample.api], dataset.display_names.get(sample.api, sample.api))
    if setting not in RAG_SETTINGS:
        return prompt
    return augment(prompt, sample.task, dataset.specs[sample.api], dataset.display_names.get(sample.api, sample.api),
                   rag_format=rag_format)
