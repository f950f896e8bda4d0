"""One chat request of ``datasets generate``, sent through any registered backend.

The request goes through the ordinary :class:`~wapii_core.base.protocols.Backend` protocol: the prompt
text is the system sentence followed by the user message (a chat backend with the shared option
``system=split`` sends the first sentence as the system message, the rest as the user message)
and the starter code is empty, so the "program" the backend returns is the model's answer. Each
attempt is its own draw, so a retry after a malformed answer is a new sample (and a new cache
entry), not the cached answer again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wapii_core.base.errors import WapiiError

GENERATION_OPTIONS = {"max_new_tokens": "16384", "stop": "", "chat": "true", "system": "split"}
"""Defaults for the decoding options wapii's model backends share (``-O`` overrides each): a
long answer, no code-block stop string, the chat endpoint, the system sentence split off."""


class AskFailed(Exception):
    """The backend gave no answer (after its own retries)."""


class BackendAsk:
    """``ask(system, user, attempt) -> answer`` through a backend; ``close()`` when done."""

    def __init__(self, backend: Any, api: str) -> None:
        self.backend = backend
        self.api = api

    def __call__(self, system: str, user: str, attempt: int = 0) -> str:
        from wapii_core.base.model import GenerationRequest, Prompt, Sample

        request = GenerationRequest(
            sample=Sample(api=self.api, index=0, task="dataset generation", config={}), draw=attempt,
            prompt=Prompt(text=f"{system} {user}", starter="", instructions=f"{system} {user}"))
        answers = list(self.backend.generate([request]))
        if not answers or answers[0].error:
            raise AskFailed(answers[0].error if answers else "no answer")
        if answers[0].finish_reason == "length":
            raise AskFailed("the answer was cut off at the token limit (raise -O max_new_tokens)")
        return answers[0].code or ""

    def close(self) -> None:
        self.backend.close()


def backend_chat(backend: str, model: str, options: dict[str, str], spec: Path, api: str,
                 attempts: int = 1) -> BackendAsk:
    """A :class:`BackendAsk` for the registered ``backend`` serving ``model``."""
    from wapii_core.base import plugins
    from wapii_core.openapi.spec_file import read_spec
    from wapii_core.base.model import Setup
    from wapii_core.base.protocols import BackendOptions, Dataset, RunContext

    factory = plugins.backends.get(backend)
    title = (read_spec(spec).get("info") or {}).get("title")
    dataset = Dataset(name=f"{api} (generating)", samples=[], specs={api: spec},
                      display_names={api: title if isinstance(title, str) else api}, source=spec, sha256="")
    backend_options = BackendOptions(model=model, draws=max(1, attempts),
                                     extra={**GENERATION_OPTIONS, **options})
    try:
        instance = factory(backend_options, RunContext(dataset, None, Setup.full))  # type: ignore[arg-type]
    except WapiiError as exc:
        raise WapiiError(f"{exc} (datasets generate sets {', '.join(f'{k}={v!r}' for k, v in GENERATION_OPTIONS.items())}"
                         " by default; override them with -O)") from None
    return BackendAsk(instance, api)
