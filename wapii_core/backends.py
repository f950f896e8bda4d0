"""The core's own backends: ``oracle`` (a self-test of the harness) and ``replay`` (stored programs)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from .errors import InputError, WapiiError
from .model import Generation, GenerationRequest
from .protocols import BackendOptions, RunContext


class OracleBackend:
    """Renders each sample's expected request through the adapter's ``render``.

    Every adapter must score 100 % correct with zero errors on its own renderings, on every dataset
    and setup: anything less is a defect of the adapter or of the judging, not of a model.
    """

    name = "oracle"
    supports_constraints = False

    def __init__(self, options: BackendOptions, context: RunContext) -> None:
        import inspect

        self.context = context
        takes_mode = "mode" in inspect.signature(context.adapter.render).parameters
        self._mode = {"mode": context.mode} if takes_mode else {}

    def generate(self, requests: list[GenerationRequest]) -> Iterator[Generation]:
        for req in requests:
            code = self.context.adapter.render(req.sample.config, self.context.setup, req.sample, **self._mode)
            yield Generation(sample=req.sample.id, draw=req.draw, code=code)

    def describe(self) -> dict[str, Any]:
        return {"rendered_for": self.context.mode}


def read_generations(path: Path) -> dict[str, str]:
    """Stored programs by sample id (``"<api>/<index>"``), from a JSONL file or a code directory.

    - JSONL: one ``{"sample": "<api>/<index>", "code": "<full program>"}`` object per line
      (a ``"draw"`` key is accepted; draw 0 is used);
    - directory: the reference pipeline's layout, ``<api>/<index:04d>_code.js`` (or ``.py``).
    """
    if not path.exists():
        raise InputError(path, "no such file or directory")
    if path.is_dir():
        return _read_code_dir(path)
    codes: dict[str, str] = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(path, f"line {number}: malformed JSON ({exc.msg} at column {exc.colno})") from None
            if not isinstance(item, dict) or not isinstance(item.get("sample"), str) or not isinstance(item.get("code"), str):
                raise InputError(path, f"line {number}: expected an object with string fields 'sample' and 'code'")
            if item.get("draw", 0) == 0:
                codes[item["sample"]] = item["code"]
    return codes


def _read_code_dir(root: Path) -> dict[str, str]:
    codes: dict[str, str] = {}
    for api_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        for file in sorted(api_dir.glob("*_code.*")):
            stem = file.name.split("_", 1)[0]
            if not stem.isdigit():
                raise InputError(file, "expected a name like 0007_code.js (index, then _code)")
            codes[f"{api_dir.name}/{int(stem)}"] = file.read_text(encoding="utf-8")
    if not codes:
        raise InputError(root, "no <api>/<index>_code.* files found")
    return codes


class ReplayBackend:
    """Re-scores stored programs instead of asking a model (``--generations FILE|DIR``)."""

    name = "replay"
    supports_constraints = False

    def __init__(self, options: BackendOptions, context: RunContext) -> None:
        if options.generations is None:
            raise WapiiError("the replay backend needs --generations FILE.jsonl or DIR")
        self.source = Path(options.generations)
        self.codes = read_generations(self.source)
        known = {s.id for s in context.dataset.samples}
        unknown = sorted(set(self.codes) - known)
        if unknown:
            raise InputError(self.source, f"sample {unknown[0]} is not in dataset {context.dataset.name!r}"
                             + (f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""))

    def generate(self, requests: list[GenerationRequest]) -> Iterator[Generation]:
        for req in requests:
            code = self.codes.get(req.sample.id)
            if code is None:
                yield Generation(sample=req.sample.id, draw=req.draw, finish_reason="error",
                                 error=f"no program for this sample in {self.source}")
            else:
                yield Generation(sample=req.sample.id, draw=req.draw, code=code)

    def describe(self) -> dict[str, Any]:
        return {"generations": str(self.source.resolve())}
