"""The conformance kit: what every adapter runs on itself, the way a sandbox provider runs a self-check.

:func:`check_adapter` checks one adapter, created from its registered name (or given), and returns a
:class:`ConformanceReport`; ``wapii adapters check NAME`` prints it. The checks:

- **oracle**: the adapter's own renderings of every expected request (``render``) extracted, executed
  in the sandbox, normalised and judged must all be ``correct``, for each dataset, each setup and
  each mode of ``capabilities.modes`` (a program rendered the same for several modes runs once and is
  judged in each);
- **replay** (:class:`ReplayCorpus`): stored programs whose verdicts are known (the published
  pipeline's, or a library's odd calls recorded once) re-scored the way a user would
  (``wapii run --backend replay``), every sample's verdict compared;
- **hostile** (:class:`HostileProgram`): programs of the adapter's language that try to escape, forge
  their capture or harm the processes around them, each followed by the oracle's program for one
  task: each must end as its ``expect`` says, and every program after one judged ``correct``;
- **exchanges** (:class:`ExchangeProgram`, adapters whose ``capabilities.answers`` is set): a program
  that creates an object (``POST``) and reads it back by the identifier the answer gave (``GET``),
  answered by a :class:`CreateReadResponder`, must run to its end with both exchanges recorded;
  :func:`mock_exchange_check` runs the same programs against the :class:`~wapii_core.mock.SpecMock`
  of Asana's description (a bearer token sent, the identifier the mock made read back).

The datasets and corpora are the caller's (the demo dataset by default); a report lists every check
and the first few samples of each that failed.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from pydantic import BaseModel, ConfigDict

from wapii_core.base.capabilities import AdapterCapabilities
from wapii_core.base.errors import WapiiError
from wapii_core.base.model import Capture, Generation, SampleResult, Setup
from wapii_core.base.setups import CALL_SETUPS
from wapii_core.base.protocols import Adapter, Dataset

SHOWN = 5
"""Failures listed per check (the count says how many there were)."""
VERDICT_FIELDS = ("error", "sample", "url", "method", "endpoint", "arguments")
"""What a replay's expected verdicts hold per sample (the published pipeline's per-sample record)."""

Done = Callable[["CheckOutcome"], None]
"""Called with each check as it ends (a command line prints it)."""


class CheckOutcome(BaseModel):
    """One check: ``kind`` (``oracle``, ``replay``, ``hostile``), ``subject`` (what it ran: ``demo
    full wire``), how many of ``total`` passed, and the first failures, one line each."""

    model_config = ConfigDict(frozen=True)

    kind: str
    subject: str
    total: int
    passed: int
    failures: list[str] = []

    @property
    def ok(self) -> bool:
        return self.total > 0 and self.passed == self.total

    def line(self) -> str:
        mark = "ok" if self.ok else "FAILED"
        return f"{mark:6} {self.kind} {self.subject}: {self.passed}/{self.total}"


class ConformanceReport(BaseModel):
    """Every check of one adapter, in the order run."""

    adapter: str
    capabilities: AdapterCapabilities
    checks: list[CheckOutcome] = []

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(check.ok for check in self.checks)

    def problems(self) -> list[str]:
        """One line per failing sample shown (``<check>: <failure>``); empty when the adapter conforms."""
        return [f"{check.kind} {check.subject}: {failure}" for check in self.checks if not check.ok
                for failure in (check.failures or ["nothing was checked"])]


@dataclass(frozen=True)
class ReplayCorpus:
    """Stored programs and the verdicts they must get.

    ``generations``: a JSONL file or a directory in the reference layout (``<api>/<index:04d>_code.<ext>``);
    ``expected``: ``{sample id: {"error", "sample", "url", "method", "endpoint", "arguments"}}``, the
    published pipeline's per-sample record (``arguments``: the non-empty per-field verdicts; other keys
    are ignored); ``dataset`` and ``data_dir`` as ``wapii run`` takes them."""

    name: str
    generations: Path
    expected: dict[str, dict[str, Any]]
    dataset: str = "demo"
    data_dir: Path | None = None
    setup: Setup = Setup.full
    mode: str | None = None

    @classmethod
    def from_reference(cls, name: str, generations: Path, reference: Path, **options: Any) -> ReplayCorpus:
        """A corpus whose verdicts are the ``samples`` of a reference file (``<name>.reference.json``)."""
        try:
            data = json.loads(reference.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise WapiiError(f"{reference}: not a readable reference file ({exc})") from None
        samples = data.get("samples", data) if isinstance(data, dict) else None
        if not isinstance(samples, dict):
            raise WapiiError(f"{reference}: expected an object of per-sample verdicts")
        return cls(name, generations, samples, **options)


@dataclass(frozen=True)
class HostileProgram:
    """One hostile program: ``code`` (a full program), and ``expect``, how it must end: an error kind
    (``runtime_error``, ``no_request``, ...), ``blocked`` (a ``blocked: <what>`` error),
    ``bad_capture`` (a ``runtime_error`` whose detail starts so) or ``not_correct`` (an error, or a
    request other than ``forge``, the neutral request it tries to have judged in place of what it
    sent: the same ``url``, ``method``, ``params`` and ``data``, and its headers among those judged,
    make it the forged one; without ``forge``, anything but a ``correct`` verdict on ``sample``);
    alternatives joined by ``|``."""

    name: str
    code: str
    expect: str
    sample: str | None = None  # the task it is judged on (default: the benign task)
    forge: dict[str, Any] | None = None


@dataclass(frozen=True)
class ExchangeProgram:
    """A program in the adapter's language that sends ``POST {base}/projects`` with the JSON body
    ``{"data": {"name": "Apollo"}}``, reads ``data.gid`` from the answer's JSON body, sends
    ``GET {base}/projects/<gid>`` and reads ``data.name`` from that answer, failing (an exception, a
    failure exit) when it is not ``Apollo``; ``{base}`` in ``code`` is replaced by the responder's base URL."""

    name: str
    code: str


class CreateReadResponder:
    """A small, real :class:`~wapii_core.mock.exchange.Responder` for the exchange check: ``POST`` to a
    collection stores the request's JSON body's ``data`` object under a new identifier (``gid``, a
    string of digits that starts with ``prefix``, so a program cannot guess it) and answers ``201``
    ``{"data": {"gid": ..., **data}}``; ``GET`` of ``<collection>/<gid>`` answers ``200`` with what was
    stored, or ``404``; anything else ``405``. Every answer is JSON."""

    def __init__(self, prefix: str = "1207") -> None:
        self.prefix = prefix
        self.store: dict[str, dict[str, Any]] = {}
        self.created = 0

    def answer(self, request: Any) -> Any:
        from urllib.parse import urlsplit

        from wapii_core.mock.exchange import MockResponse

        def reply(status: int, body: Any, note: str) -> MockResponse:
            return MockResponse(status, (("Content-Type", "application/json"),), json.dumps(body).encode(), note)

        path = urlsplit(request.url).path.rstrip("/")
        if request.method == "POST":
            try:
                data = json.loads(request.body or b"{}").get("data", {})
            except (ValueError, AttributeError):
                return reply(400, {"errors": [{"message": "the body is not a JSON object"}]}, "400: not JSON")
            self.created += 1
            gid = f"{self.prefix}{self.created}"
            self.store[gid] = {"gid": gid, **(data if isinstance(data, dict) else {})}
            return reply(201, {"data": self.store[gid]}, f"created {path}/{gid}")
        if request.method == "GET":
            gid = path.rsplit("/", 1)[-1]
            if gid in self.store:
                return reply(200, {"data": self.store[gid]}, f"read {path}")
            return reply(404, {"errors": [{"message": f"{gid} is unknown"}]}, f"404: {gid} unknown")
        return reply(405, {"errors": [{"message": f"{request.method} is not allowed"}]}, "405")


EXCHANGE_BASE = "https://app.example.com/api/1.0"
"""The base URL an :class:`ExchangeProgram` talks to (answered by the responder, never the network)."""


def exchange_problems(capture: Capture, prefix: str) -> list[str]:
    """What is wrong with an :class:`ExchangeProgram`'s capture (empty: it conforms)."""
    if capture.error is not None:
        return [f"the program did not run to its end: {capture.error}: {capture.detail}"]
    seen = capture.exchanges or []
    got = [f"{x.method} {x.url} -> {x.status}" for x in seen]
    gid = f"{prefix}1"
    wanted = [f"POST {EXCHANGE_BASE}/projects -> 201", f"GET {EXCHANGE_BASE}/projects/{gid} -> 200"]
    problems = [] if got == wanted else [f"the record holds {got}, not {wanted}"]
    if seen and json.loads(seen[0].response.body or "null") != {"data": {"gid": gid, "name": "Apollo"}}:
        problems.append(f"the first answer recorded is {seen[0].response.body!r}")
    return problems


def exchange_check(adapter: Adapter, programs: Sequence[ExchangeProgram], prefix: str = "1207") -> CheckOutcome:
    """Each program run with its own :class:`CreateReadResponder` (``prefix``: what its identifiers
    start with): it must end without error, and its capture hold both exchanges with the answers."""
    if not adapter.capabilities.answers:
        return CheckOutcome(kind="exchanges", subject=adapter.name, total=len(programs), passed=0,
                            failures=[f"{adapter.name} does not declare capabilities.answers"])
    codes = [program.code.replace("{base}", EXCHANGE_BASE) for program in programs]
    captures = adapter.execute(codes, [CreateReadResponder(prefix) for _ in programs])  # type: ignore[call-arg]
    failing = {program.name: problems for program, capture in zip(programs, captures)
               if (problems := exchange_problems(capture, prefix))}
    failures = [f"{name}: {problem}" for name, problems in failing.items() for problem in problems]
    return CheckOutcome(kind="exchanges", subject=adapter.name, total=len(programs),
                        passed=len(programs) - len(failing), failures=failures[:SHOWN])


MOCK_BASE = "https://app.asana.com/api/1.0"
"""The base URL of Asana's API, whose description's :class:`~wapii_core.mock.SpecMock` answers
:func:`mock_exchange_check` (its ``/projects`` create and read, a bearer token required)."""


def mock_exchange_problems(capture: Capture, state: dict[str, Any], base: str = MOCK_BASE) -> list[str]:
    """What is wrong with an :class:`ExchangeProgram`'s capture answered by a spec's mock whose end
    state is ``state`` (empty: it conforms): the program ran to its end, the record holds the create
    answered ``201`` and the read of the identifier that answer gave answered ``200``, and the mock's
    store holds the project named Apollo."""
    if capture.error is not None:
        return [f"the program did not run to its end: {capture.error}: {capture.detail}"]
    seen = capture.exchanges or []
    got = [f"{x.method} {x.url} -> {x.status}" for x in seen]
    try:
        gid = json.loads(seen[0].response.body or "null")["data"]["gid"]
    except (IndexError, ValueError, TypeError, KeyError):
        return [f"the record holds {got}, without the mock's answer to a create first"]
    wanted = [f"POST {base}/projects -> 201", f"GET {base}/projects/{gid} -> 200"]
    problems = [] if got == wanted else [f"the record holds {got}, not {wanted}"]
    stored = state.get("collections", {}).get("projects", {}).get(gid)
    if not isinstance(stored, dict) or stored.get("name") != "Apollo":
        problems.append(f"the mock's store holds {stored!r} as project {gid}, not the project named Apollo")
    return problems


def mock_exchange_check(adapter: Adapter, programs: Sequence[ExchangeProgram], spec: str | Path,
                        base: str = MOCK_BASE, seed: int = 0) -> CheckOutcome:
    """Each program run against its own responder of the :class:`~wapii_core.mock.SpecMock` derived
    from ``spec`` (WAPIIBench's Asana description; ``{base}`` in the program is ``base``): it must end
    without error, its capture hold both exchanges with the mock's answers
    (:func:`mock_exchange_problems`), and the mock's store the project it created."""
    from wapii_core.mock import SpecMock

    if not adapter.capabilities.answers:
        return CheckOutcome(kind="exchanges (mock)", subject=adapter.name, total=len(programs), passed=0,
                            failures=[f"{adapter.name} does not declare capabilities.answers"])
    mock = SpecMock.for_spec(spec)
    responders = [mock.responder(seed=seed) for _ in programs]
    codes = [program.code.replace("{base}", base) for program in programs]
    captures = adapter.execute(codes, responders)  # type: ignore[call-arg]
    failing = {program.name: problems for program, capture, responder in zip(programs, captures, responders)
               if (problems := mock_exchange_problems(capture, responder.state(), base))}
    failures = [f"{name}: {problem}" for name, problems in failing.items() for problem in problems]
    return CheckOutcome(kind="exchanges (mock)", subject=adapter.name, total=len(programs),
                        passed=len(programs) - len(failing), failures=failures[:SHOWN])


@dataclass
class _Captures:
    """The adapter, with the captures of calls already run: a program rendered the same for several
    modes runs once. Every other member is the adapter's."""

    adapter: Adapter
    seen: dict[str, Capture] = field(default_factory=dict)

    def execute(self, calls: list[str]) -> list[Capture]:
        todo = list(dict.fromkeys(call for call in calls if call not in self.seen))
        if todo:
            self.seen.update(zip(todo, self.adapter.execute(todo)))
        return [self.seen[call] for call in calls]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.adapter, name)


def _failure(result: SampleResult) -> str:
    why = "; ".join(list(result.reasons.values())[:2]) or result.error_detail or ""
    return f"{result.sample}: {result.error or result.verdict}" + (f" ({why})" if why else "")


def _outcome(kind: str, subject: str, failures: list[str], total: int) -> CheckOutcome:
    return CheckOutcome(kind=kind, subject=subject, total=total, passed=total - len(failures), failures=failures[:SHOWN])


def oracle_checks(adapter: Adapter, dataset: Dataset, setups: Iterable[Setup] = CALL_SETUPS,
                  modes: Sequence[str] | None = None, done: Done | None = None) -> list[CheckOutcome]:
    """One :class:`CheckOutcome` per setup and mode: the adapter's renderings of ``dataset``'s expected
    requests, each judged in the mode it was rendered for, must all be ``correct``."""
    from wapii_core.judge.generations import Judge

    modes = list(modes or adapter.capabilities.modes)
    outcomes = []
    for setup in setups:
        cached = _Captures(adapter)
        for mode in modes:
            generations = [Generation(sample=s.id, code=adapter.render(s.config, setup, s, mode=mode))
                           for s in dataset.samples]
            results = Judge(cached, dataset, mode)(generations)  # type: ignore[arg-type]
            failures = [_failure(r) for r in results if r.verdict != "correct"]
            outcomes.append(_outcome("oracle", f"{dataset.name} {setup.value} {mode}", failures, len(results)))
            if done is not None:
                done(outcomes[-1])
    return outcomes


def _verdicts(result: SampleResult) -> dict[str, Any]:
    return {"error": result.error, "sample": result.verdict, "url": result.url, "method": result.method,
            "endpoint": result.endpoint, "arguments": {f: v for f, v in result.arguments.items() if v}}


def replay_check(adapter_name: str, corpus: ReplayCorpus, out: Path | None = None) -> tuple[CheckOutcome, list[SampleResult]]:
    """The corpus re-scored as ``wapii run --backend replay`` scores it (into ``out``, else a temporary
    directory), every sample's verdict compared with the expected one; the outcome and the results."""
    from wapii_core.base.declared import backend_of_kind
    from wapii_core.run.runner import RunConfig, run

    replay = backend_of_kind("replays")
    if replay is None:
        raise WapiiError("no installed backend replays stored programs (`wapii plugins` lists what is installed)")
    config = RunConfig(dataset=corpus.dataset, data_dir=corpus.data_dir, adapter=adapter_name, backend=replay,
                       generations=corpus.generations, setup=corpus.setup, mode=corpus.mode)
    with tempfile.TemporaryDirectory(prefix="wapii-conformance-") as scratch:
        directory = out or Path(scratch) / "run"
        run(config, directory)
        results = [SampleResult.model_validate_json(line)
                   for line in (directory / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    by_sample = {result.sample: result for result in results}
    failures = []
    for sample, want in corpus.expected.items():
        got = by_sample.get(sample)
        if got is None:
            failures.append(f"{sample}: not judged")
            continue
        ours = _verdicts(got)
        theirs = {key: want.get(key) for key in VERDICT_FIELDS}
        theirs["arguments"] = {f: v for f, v in (theirs["arguments"] or {}).items() if v}
        if ours != theirs:
            differ = {key: (ours[key], theirs[key]) for key in VERDICT_FIELDS if ours[key] != theirs[key]}
            failures.append(f"{sample}: (ours, expected) {differ}")
    return _outcome("replay", corpus.name, failures, len(corpus.expected)), results


def _is_forged(request: dict[str, Any] | None, forge: dict[str, Any]) -> bool:
    """Whether a judged request is ``forge``: the same ``url``, ``method``, ``params`` and ``data`` (absent
    in both, or equal), the forge's headers among the request's."""
    if request is None:
        return False
    if any(request.get(key) != forge.get(key) for key in ("url", "method", "params", "data")):
        return False
    headers = {str(name).lower(): value for name, value in (request.get("headers") or {}).items()}
    return all(headers.get(name.lower()) == value for name, value in (forge.get("headers") or {}).items())


def _expectation_met(program: HostileProgram, expect: str, result: SampleResult) -> bool:
    if "|" in expect:
        return any(_expectation_met(program, one, result) for one in expect.split("|"))
    if expect == "not_correct":
        if program.forge is not None:
            return result.error is not None or not _is_forged(result.request, program.forge)
        return result.verdict != "correct"
    if result.error is None:
        return False
    if expect == "bad_capture":
        return result.error == "runtime_error" and (result.error_detail or "").startswith("bad_capture")
    if expect == "blocked":
        return result.error.startswith("blocked: ")
    return result.error == expect


def hostile_check(adapter: Adapter, dataset: Dataset, programs: Sequence[HostileProgram], family: str,
                  setup: Setup = Setup.full) -> CheckOutcome:
    """Each hostile program, then the oracle's program for the dataset's first task, in order through
    the adapter (a worker may serve both): each hostile program must end as it ``expect``\\ s, and every
    oracle program after one must be judged ``correct`` (nothing a program did outlived it)."""
    from wapii_core.judge.generations import Judge

    benign = dataset.samples[0]
    mode = adapter.default_mode
    code = adapter.render(benign.config, setup, benign, mode=mode)
    generations = []
    for program in programs:
        generations += [Generation(sample=program.sample or benign.id, code=program.code),
                        Generation(sample=benign.id, code=code)]
    results = Judge(adapter, dataset, mode)(generations)
    failures = []
    for n, program in enumerate(programs):
        hostile, after = results[2 * n], results[2 * n + 1]
        if not _expectation_met(program, program.expect, hostile):
            failures.append(f"{program.name}: expected {program.expect}, got {hostile.error or hostile.verdict} "
                            f"({(hostile.error_detail or '')[:120]})")
        if after.verdict != "correct":
            failures.append(f"{program.name}: the oracle program after it got {_failure(after)}")
    return CheckOutcome(kind="hostile", subject=family, total=2 * len(programs),
                        passed=2 * len(programs) - len(failures), failures=failures[:SHOWN])


def check_adapter(adapter: str | Adapter, *, datasets: Sequence[Dataset] | None = None,
                  setups: Iterable[Setup] = CALL_SETUPS, modes: Sequence[str] | None = None,
                  replays: Sequence[ReplayCorpus] = (), hostile: dict[str, Sequence[HostileProgram]] | None = None,
                  done: Done | None = None) -> ConformanceReport:
    """Every check of the kit for one adapter (see the module docstring): the oracle on each of
    ``datasets`` (default: the demo dataset) in each of ``setups`` and ``modes`` (default: its
    ``capabilities.modes``), each replay corpus, and each named family of hostile programs (judged on
    the first dataset). A name is created from the registered adapters (and closed at the end); an
    adapter given is the caller's to close. ``done`` is called with each check as it ends."""
    from wapii_core.base import plugins
    from wapii_core.run.runner import load_dataset

    made = isinstance(adapter, str)
    instance = plugins.adapters.get(adapter)() if isinstance(adapter, str) else adapter
    try:
        datasets = list(datasets) if datasets is not None else [load_dataset("demo", None)]
        setups = list(setups)
        report = ConformanceReport(adapter=instance.name, capabilities=instance.capabilities)
        for dataset in datasets:
            report.checks += oracle_checks(instance, dataset, setups, modes, done)
        later = [lambda family=family, programs=programs: hostile_check(instance, datasets[0], programs, family)
                 for family, programs in (hostile or {}).items()]
        later += [lambda corpus=corpus: replay_check(instance.name, corpus)[0] for corpus in replays]
        for check in later:
            report.checks.append(check())
            if done is not None:
                done(report.checks[-1])
        return report
    finally:
        if made:
            instance.close()
