"""The core's own backends: ``oracle`` (a self-test of the harness) and ``replay`` (stored programs)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from wapii_core.base.declared import backend_kind
from wapii_core.base.errors import InputError, WapiiError
from wapii_core.base.jsonwalk import lone_surrogate
from wapii_core.base.model import Generation, GenerationRequest
from wapii_core.base.protocols import BackendOptions, RunContext


class OracleBackend:
    """Renders each sample's expected request through the adapter's ``render``.

    Every adapter must score 100 % correct with zero errors on its own renderings, on every dataset
    and setup: anything less is a defect of the adapter or of the judging, not of a model.
    """

    name = "oracle"
    kind = "renders"
    supports_constraints = False

    def __init__(self, options: BackendOptions, context: RunContext) -> None:
        refuse_unused(self.name, options, "it renders each task's expected request", model=True)
        self.context = context

    def generate(self, requests: list[GenerationRequest]) -> Iterator[Generation]:
        context = self.context
        for req in requests:
            if req.sample.workflow and context.oracle_calls is not None:
                code = context.adapter.render_workflow(context.oracle_calls(req.sample), req.sample)  # type: ignore[attr-defined]
            else:
                code = context.adapter.render(req.sample.config, context.setup, req.sample, mode=context.mode)
            yield Generation(sample=req.sample.id, draw=req.draw, code=code)

    def describe(self) -> dict[str, Any]:
        return {"rendered_for": self.context.mode}


def refuse_unused(backend: str, options: BackendOptions, why: str, model: bool = False) -> None:
    """Refuse options a core backend would silently ignore: ``-O`` options (and ``--model`` when
    ``model``), in one line naming the backend and why it has no use for them."""
    unused = [f"--model {options.model}"] if model and options.model else []
    unused += [f"-O {key}={value}" for key, value in options.extra.items()]
    if unused:
        raise WapiiError(f"backend {backend!r} ignores {', '.join(unused)}: {why} (those options are for "
                         "the model backends, e.g. --backend hf)")


def replay_hint(backend: str, counts: dict[str, int]) -> str | None:
    """A hint for a replay (a backend that ``replays``) whose every program sent no request: the stored ``code`` is the whole
    program (the starter code included), not only the completion."""
    if backend_kind(backend) == "replays" and counts.get("total") and counts.get("no_request") == counts.get("total"):
        return ("hint: every replayed program ran without sending a request; each 'code' must be the whole "
                "program, the prompt's starter code (imports, the call's beginning) included, not only the "
                "model's completion")
    return None


def oracle_shortfall(backend: str, overall: dict[str, Any]) -> str | None:
    """The warning for an oracle run (a backend that ``renders``) that scored below 100 % correct (a broken adapter or dataset:
    the oracle sends exactly the expected requests), else None; ``overall``: the summary's paper rows."""
    correct = (overall or {}).get("Correct implementations (t)")
    if backend_kind(backend) != "renders" or correct is None or correct >= 1.0:
        return None
    counts = (overall or {}).get("counts") or {}
    wrong = counts.get("total", 0) - counts.get("correct", 0)
    return (f"WARNING: the oracle scored {100 * correct:.1f} % correct ({wrong} of {counts.get('total', '?')} "
            "samples not correct), not 100 %: it sends exactly the expected requests, so the adapter's render, "
            "extract or normalise, or the dataset, is broken. Check the dataset with `wapii datasets check`, "
            "then the adapter (results.jsonl says what each sample got wrong).")


def read_generations(path: Path, draws: int = 1) -> dict[tuple[str, int], str]:
    """Stored programs by sample id (``"<api>/<index>"``) and draw, from a JSONL file or a code directory.

    - JSONL: one ``{"sample": "<api>/<index>", "code": "<full program>"}`` object per line, with an
      optional integer ``"draw"`` (default 0) below ``draws``; a sample and draw given twice is refused;
    - directory: the reference pipeline's layout, ``<api>/<index:04d>_code.js`` (or ``.py``), draw 0.

    Text that is not UTF-8 is refused, naming the file and line.
    """
    if not path.exists():
        raise InputError(path, "no such file or directory")
    if path.is_dir():
        return _read_code_dir(path)
    codes: dict[tuple[str, int], str] = {}
    lines: dict[tuple[str, int], int] = {}
    try:
        with open(path, "rb") as handle:
            raw_lines = list(handle)
    except OSError as exc:
        raise InputError(path, f"cannot read: {exc.strerror or exc}") from None
    for number, raw in enumerate(raw_lines, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(path, f"line {number}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(path, f"line {number}, column {exc.colno}: malformed JSON: {exc.msg}") from None
        if not isinstance(item, dict) or not isinstance(item.get("sample"), str) or not isinstance(item.get("code"), str):
            raise InputError(path, f"line {number}: expected an object with string fields 'sample' and 'code'")
        for field in ("sample", "code"):
            if lone_surrogate(item[field]):
                raise InputError(path, f"line {number}: '{field}' holds a lone surrogate (an escape such as \\ud800 "
                                       "alone), which UTF-8 cannot store")
        draw = item.get("draw", 0)
        if not isinstance(draw, int) or isinstance(draw, bool) or draw < 0:
            raise InputError(path, f"line {number}: 'draw' must be a whole number from 0, not {json.dumps(draw)}")
        if draw >= draws:
            raise InputError(path, f"line {number}: draw {draw} of {item['sample']} is beyond --draws/-n {draws} "
                                   f"(draws count from 0)")
        key = (item["sample"], draw)
        if key in lines:
            raise InputError(path, f"line {number}: {item['sample']} draw {draw} is already on line {lines[key]}")
        codes[key], lines[key] = item["code"], number
    return codes


def _read_code_dir(root: Path) -> dict[tuple[str, int], str]:
    codes: dict[tuple[str, int], str] = {}
    for api_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        for file in sorted(api_dir.glob("*_code.*")):
            stem = file.name.split("_", 1)[0]
            if not stem.isdigit():
                raise InputError(file, "expected a name like 0007_code.js (index, then _code)")
            try:
                codes[(f"{api_dir.name}/{int(stem)}", 0)] = file.read_bytes().decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(file, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if not codes:
        raise InputError(root, "no <api>/<index>_code.* files found")
    return codes


class ReplayBackend:
    """Re-scores stored programs instead of asking a model (``--generations FILE|DIR``)."""

    name = "replay"
    kind = "replays"
    supports_constraints = False

    def __init__(self, options: BackendOptions, context: RunContext) -> None:
        refuse_unused(self.name, options, "it re-scores the stored programs")
        if options.generations is None:
            raise WapiiError("the replay backend needs --generations FILE.jsonl or DIR")
        self.source = Path(options.generations)
        self.codes = read_generations(self.source, options.draws)
        known = {s.id for s in context.dataset.samples}
        unknown = sorted({sample for sample, _ in self.codes} - known)
        if unknown:
            raise InputError(self.source, f"sample {unknown[0]} is not in dataset {context.dataset.name!r}"
                             + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""))

    def tasks(self) -> set[str]:
        """The samples the stored programs are for: a file for some samples judges those (the run's task set)."""
        return {sample for sample, _ in self.codes}

    def generate(self, requests: list[GenerationRequest]) -> Iterator[Generation]:
        for req in requests:
            code = self.codes.get((req.sample.id, req.draw))
            if code is None:
                which = "this sample" if req.draw == 0 else f"draw {req.draw} of this sample"
                yield Generation(sample=req.sample.id, draw=req.draw, finish_reason="error",
                                 error=f"no program for {which} in {self.source}")
            else:
                yield Generation(sample=req.sample.id, draw=req.draw, code=code)

    def describe(self) -> dict[str, Any]:
        return {"generations": str(self.source.resolve())}
