"""The shapes plugins implement: backends, adapters, metric providers, datasets.

These are structural (``typing.Protocol``): a plugin needs no wapii base class, only the methods.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Protocol, runtime_checkable

from .model import Capture, Extraction, Generation, GenerationRequest, Prompt, Sample, SampleResult, Setup


@dataclass
class Dataset:
    """A loaded dataset: its samples, the OpenAPI spec of each API and the prompt texts."""

    name: str
    samples: list[Sample]
    specs: dict[str, Path]  # api -> OpenAPI spec file
    display_names: dict[str, str]  # api -> human name used in prompts ("Slack Web")
    source: Path  # the dataset file (named in errors, hashed into run.json)
    sha256: str  # of the dataset file
    prompts_dir: Path | None = None  # holds code_generation_prompt.md and the generation prompts

    def sample(self, sample_id: str) -> Sample:
        for s in self.samples:
            if s.id == sample_id:
                return s
        raise KeyError(sample_id)


@dataclass
class BackendOptions:
    """What the CLI passes to a backend factory."""

    model: str | None = None
    draws: int = 1
    generations: Path | None = None  # replay: the stored generations to re-score
    extra: dict[str, str] = field(default_factory=dict)  # ``-O key=value`` options for third-party backends


ProgressFactory = Callable[[str, int], Callable[[int], None]]
"""``progress(stage, total) -> advance(n)``: one progress bar per stage (the CLI's rich bars, or nothing)."""


@dataclass
class RunContext:
    """What a backend may need to know about the run it serves.

    ``run_dir``: the run directory, where a backend may keep the state that lets a resumed run
    pick up work it paid for (the ``openai`` backend's Batch API ids); ``None`` outside a run.
    ``progress``: a factory for the backend's own progress bars (finer than the runner's one
    step per generation, e.g. tokens, or requests of a pending batch).
    """

    dataset: Dataset
    adapter: "Adapter"
    setup: Setup
    mode: str = "reference"  # the comparison mode the run is judged in
    setting: str = "unconstrained"  # unconstrained | constrained | rag | constrained-rag
    run_dir: Path | None = None
    progress: ProgressFactory | None = None


@runtime_checkable
class Backend(Protocol):
    """Where completions come from.

    ``generate`` receives every request the run still needs (one call per run, so a backend can
    keep as many requests in flight as it is configured for) and yields one :class:`Generation`
    per request (in any order) as soon as it has it, each holding the *full program* (the
    prompt's starter code + completion): the run stores each at once, so an interrupted run loses
    only what was not yielded yet. A backend that fails on one request yields a Generation with
    ``error`` set; the run records it and retries it when resumed. A backend whose answers will
    come later (a batch still running at the provider) yields what it has and then raises
    :class:`~wapii_core.errors.GenerationPending`.

    Optional: ``preflight(requests)``, called once with the same requests before ``generate`` and
    before anything is written, checks what it can cheaply (credentials, the server, the model;
    nothing when every answer is cached) and raises a one-line
    :class:`~wapii_core.errors.WapiiError`; ``close()`` frees what the backend holds.
    """

    name: str
    supports_constraints: bool

    def generate(self, requests: list[GenerationRequest]) -> Iterator[Generation]: ...

    def describe(self) -> dict[str, Any]:
        """Parameters that determine the generations (stored in run.json)."""
        ...


@runtime_checkable
class Adapter(Protocol):
    """A target language + HTTP library.

    - ``prompt(sample, setup, dataset)``: the prompt text ending in the starter code;
    - ``extract(code)``: cut the first call out of a full program (or say why not);
    - ``execute(calls)``: run each call in isolation, capturing the request it issues; returns one
      Capture per call, in order; a hostile or broken call yields an error Capture, never an exception;
    - ``normalise(request)``: turn a captured request into the neutral configuration (metrics.md §3),
      of the shape :mod:`wapii_core.request_schema` states (anything else, or an exception, makes
      that sample a ``runtime_error``);
    - ``render(config, setup, sample, mode)``: a full program that issues ``config`` (the oracle's
      source), written so that comparison ``mode`` judges it correct (an adapter whose rendering
      is the same in every mode may leave ``mode`` out of its signature);
    - ``setup()``: install what the adapter needs (idempotent); ``close()``: stop its workers.
    """

    name: str

    def prompt(self, sample: Sample, setup: Setup, dataset: Dataset) -> Prompt: ...

    def extract(self, code: str) -> Extraction: ...

    def execute(self, calls: list[str]) -> list[Capture]: ...

    def normalise(self, request: dict[str, Any]) -> dict[str, Any]: ...

    def render(self, config: dict[str, Any], setup: Setup, sample: Sample, mode: str = "reference") -> str: ...

    def setup(self) -> None: ...

    def close(self) -> None: ...


@runtime_checkable
class MetricProvider(Protocol):
    """Turns sample results into named metrics.

    ``aggregate(results, dataset)`` returns a JSON-serialisable mapping stored in ``summary.json``
    under the provider's registered name; ``descriptions`` maps each metric to one sentence.
    """

    descriptions: dict[str, str]

    def aggregate(self, results: Iterable[SampleResult], dataset: Dataset) -> dict[str, Any]: ...
