"""The shapes plugins implement: backends, adapters, metric providers, datasets.

These are structural (``typing.Protocol``): a plugin needs no wapii base class, only the methods.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Protocol, runtime_checkable

from wapii_core.base.backend_kinds import BACKEND_KINDS, GENERATES  # noqa: F401  (re-exported)
from wapii_core.base.capabilities import MODES, AdapterCapabilities  # noqa: F401  (MODES: re-exported)
from wapii_core.base.metric_kinds import Metric
from wapii_core.base.model import Capture, Extraction, Generation, GenerationRequest, Prompt, Sample, SampleResult, Setup


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
    rules: dict[str, Any] = field(default_factory=dict)
    """api -> its comparison rules (:class:`wapii_core.datasets.rules.ApiRules`; docs/datasets.md)."""

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
    setting: str = "unconstrained"  # unconstrained | constrained | rag | constrained-rag | spec
    run_dir: Path | None = None
    progress: ProgressFactory | None = None
    oracle_calls: Callable[[Sample], list[dict[str, Any]]] | None = None
    """In a workflow run (``setup`` ``workflow``): a task's calls as the oracle's program gets them,
    the setup's references replaced by what the task's mock answered (docs/workflows.md)."""


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
    :class:`~wapii_core.base.errors.GenerationPending`.

    Required: ``name``, ``supports_constraints``, ``generate``, ``describe``. Optional (declared
    here; a backend that leaves one out gets the default stated on it when it is created):
    ``kind``, ``preflight``, ``tasks`` and ``close``. :mod:`wapii_core.base.plugin_checks` checks all of them when the
    backend is created, so the core calls every member without probing for it.
    """

    name: str
    supports_constraints: bool
    kind: str
    """Optional (default ``"generates"``; a minor addition to the plugin API): what the backend
    is, one of :data:`BACKEND_KINDS`. The core asks it instead of the backend's name. Declare it on
    what is registered (the backend's class, or its factory function as ``factory.kind``): the
    command line reads it before the backend is created (``--generations`` is for a backend that
    ``replays``; the default ``--backend`` is the one that ``renders``)."""

    def generate(self, requests: list[GenerationRequest]) -> Iterator[Generation]: ...

    def describe(self) -> dict[str, Any]:
        """Parameters that determine the generations (stored in run.json)."""
        ...

    def preflight(self, requests: list[GenerationRequest]) -> None:
        """Optional (default: checks nothing). Called once with the requests ``generate`` will get,
        before it and before anything is written: checks what it can cheaply (credentials, the
        server, the model; nothing when every answer is cached) and raises a one-line
        :class:`~wapii_core.base.errors.WapiiError`."""
        ...

    def tasks(self) -> set[str] | None:
        """Optional (default: ``None``, every selected sample). The ids of the samples the backend holds
        work for (a replay file's programs): the run's task set is the selected samples among them,
        recorded in run.json, and the others are neither generated nor counted as failed."""
        ...

    def close(self) -> None:
        """Optional (default: nothing to free). Frees what the backend holds; called once, at the end of a run."""
        ...


@runtime_checkable
class Adapter(Protocol):
    """A target language + HTTP library.

    Required:

    - ``name``: the name it is registered under;
    - ``prompt(sample, setup, dataset)``: the prompt text ending in the starter code;
    - ``extract(code)``: cut the first call out of a full program (or say why not);
    - ``execute(calls)``: run each call in isolation, capturing the request it issues; returns one
      Capture per call, in order; a hostile or broken call yields an error Capture, never an exception;
    - ``normalise(request)``: turn a captured request into the neutral configuration (metrics.md §3),
      of the shape :mod:`wapii_core.judge.request_schema` states (anything else, or an exception, makes
      that sample a ``runtime_error``);
    - ``render(config, setup, sample, mode)``: a full program that issues ``config`` (the oracle's
      source), written so that comparison ``mode`` judges it correct; ``mode`` alone is optional
      (an adapter whose rendering is the same in every mode may leave it out of its signature);
    - ``setup()``: install what the adapter needs (idempotent).

    Optional (declared below with their defaults; :mod:`wapii_core.base.plugin_checks` checks each one an
    adapter has when the adapter is created, and the core holds it completed with the default of each one
    it lacks, :class:`~wapii_core.base.plugin_checks.Completed`; the adapter itself is left as it is):
    ``default_mode``, ``capabilities``, ``constraint(spec, setup, **options)``, ``isolation()``,
    ``start()``, ``close()``.
    """

    name: str
    default_mode: str
    """Optional (default ``"reference"``): the comparison mode a run is judged in unless ``--mode`` says
    otherwise; one of ``reference``, ``strict``, ``wire`` (and of ``capabilities.modes``)."""
    capabilities: AdapterCapabilities
    """Optional (default: :func:`~wapii_core.base.capabilities.default_capabilities`, an unknown language,
    ``constrained`` where the adapter has its own ``constraint``): what the adapter offers (language,
    single-call extraction, constrained decoding, comparison modes, wire capture), asked by the core,
    backends and tests instead of adapter names."""

    def prompt(self, sample: Sample, setup: Setup, dataset: Dataset) -> Prompt: ...

    def extract(self, code: str) -> Extraction: ...

    def execute(self, calls: list[str]) -> list[Capture]: ...

    def normalise(self, request: dict[str, Any]) -> dict[str, Any]: ...

    def render(self, config: dict[str, Any], setup: Setup, sample: Sample, mode: str = "reference") -> str: ...

    def setup(self) -> None: ...

    def constraint(self, spec: Path, setup: Setup, *, references: bool = True, compact: bool = False) -> Any:
        """Optional (default: the adapter cannot constrain; a constrained run says so in one line).

        The :class:`~wapii_core.grammar.Constraint` of a legal call to the API of the spec file
        ``spec`` for ``setup``; ``references`` allows variables as values, ``compact`` allows little
        whitespace (the ``-O constraint_references`` / ``constraint_compact`` options)."""
        ...

    def isolation(self) -> Any:
        """Optional (default ``None``: the adapter runs its code through a pool the core describes).

        The :class:`~wapii_core.sandbox.Isolation` of its own sandbox on this machine, for ``wapii doctor``."""
        ...

    def start(self) -> None:
        """Optional (default: nothing). Begins starting the adapter's workers in the background and
        returns at once; a run calls it when it has generations to judge (every input checked, the
        backend done), so that the workers' start-up overlaps the first extractions. ``execute`` must
        work without it, and report any failure to start itself."""
        ...

    def close(self) -> None:
        """Optional (default: nothing to stop). Stops the adapter's workers; they restart on the next ``execute``."""
        ...


@runtime_checkable
class MetricProvider(Protocol):
    """Turns sample results into named values.

    ``aggregate(results, dataset)`` returns a JSON-serialisable mapping, stored in ``summary.json``
    under the provider's registered name (or at the top level, for a provider that declares
    ``top_level``: the paper's table). ``values`` declares what it returns: ``{key: Metric(kind, description)}``, where a key
    is a path into the mapping (``"a.b"`` for nested mappings; ``*`` matches any one part; the
    values under ``per_api.<api>`` share the declarations of the top level). Reports show each value
    as its kind says (a ``rate`` as a percentage, a ``count`` as a whole number, a ``mean`` as a
    number) and explain it with its description.
    """

    values: Mapping[str, Metric]
    top_level: bool
    """Optional (default ``False``; a minor addition to the plugin API): its values are the summary's
    top-level rows (the paper's table, as the built-in ``wapii`` provider's are) instead of sitting
    under ``metrics.<its name>``; a provider that returns nothing for a run is then still recorded."""

    def aggregate(self, results: Iterable[SampleResult], dataset: Dataset) -> dict[str, Any]: ...
