"""Backend options (``-O KEY=VALUE``) as pydantic models: validated once, at the CLI boundary.

:class:`DecodingOptions` holds what every model backend shares (decoding parameters, chat mode,
cache switches); :class:`OpenAIOptions` adds the HTTP side. The ``hf`` backend derives its own
options from :class:`DecodingOptions` too, so both accept the same names with the same meaning.
"""

from __future__ import annotations

import re
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from wapii_core.errors import WapiiError
from wapii_core.protocols import BackendOptions

from .programs import STOP, is_chat_model

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}

SAMPLED_TEMPERATURE = 0.2
"""The paper's temperature when several draws are sampled per task."""


class DecodingOptions(BaseModel):
    """Decoding options shared by the model backends."""

    model_config = ConfigDict(extra="forbid")

    max_new_tokens: int = Field(250, ge=1)
    temperature: float | None = Field(None, ge=0)  # None: 0 (greedy) for one draw, 0.2 for several
    top_k: int | None = Field(None, ge=0)  # None: the backend's default (hf: 50; openai: not sent)
    top_p: float = Field(1.0, gt=0, le=1)
    stop: str = STOP  # "" disables the stop string
    seed: int | None = None
    chat: Literal["auto", "true", "false"] = "auto"
    system: Literal["split", "none"] | None = None  # chat only: None means the backend's default
    no_cache: bool = False
    constraint_references: bool = True  # constrained settings: variables allowed as values
    constraint_compact: bool = False  # constrained settings: little whitespace between lexemes

    @field_validator("chat", mode="before")
    @classmethod
    def _chat_words(cls, value: Any) -> Any:
        words = {"1": "true", "yes": "true", "on": "true", "0": "false", "no": "false", "off": "false"}
        return words.get(str(value).strip().lower(), str(value).strip().lower())

    @field_validator("stop", mode="before")
    @classmethod
    def _unescape(cls, value: Any) -> Any:
        # a shell passes "\n" as two characters; accept the escapes people write on a command line
        if not isinstance(value, str):
            return value
        return re.sub(r"\\([ntr\\])", lambda m: _ESCAPES[m.group(1)], value)

    def sampled_temperature(self, draws: int) -> float:
        """The temperature in force: the option, else greedy for one draw and 0.2 for several."""
        if self.temperature is not None:
            return self.temperature
        return 0.0 if draws <= 1 else SAMPLED_TEMPERATURE

    def is_chat(self, model: str | None) -> bool:
        """Whether to use the chat path: the ``chat`` option, or the model name for ``auto``."""
        if self.chat == "auto":
            return is_chat_model(model)
        return self.chat == "true"


class OpenAIOptions(DecodingOptions):
    """Options of the ``openai`` backend."""

    base_url: list[str] = Field(default_factory=lambda: ["https://api.openai.com/v1"])
    api_key_env: str = "OPENAI_API_KEY"
    concurrency: int = Field(8, ge=1, le=1024)
    timeout: float = Field(60.0, gt=0)  # seconds per request
    retries: int = Field(5, ge=0)  # retries after the first attempt
    backoff: float = Field(0.5, ge=0)  # seconds before the first retry; doubles each time
    max_backoff: float = Field(30.0, ge=0)
    max_retry_after: float = Field(600.0, ge=0)  # cap on a server's Retry-After
    max_tokens_param: Literal["max_tokens", "max_completion_tokens"] = "max_tokens"
    cache_tag: str = ""  # set to tell apart two servers that serve different models under one name
    guided: Literal["none", "vllm", "vllm-legacy"] = "none"  # constrained settings: how the server gets the grammar
    preflight: bool = True  # check the key, the servers and the model before generating
    # the Batch API (batch.py): "true" sends the requests as provider-side batches, "files" writes
    # them for vLLM's batch-file runner; the remaining options size and poll those batches
    batch: Literal["false", "true", "files"] = "false"
    batch_wait: bool = False  # poll until every batch has ended, rather than exit with its status
    batch_poll: float = Field(10.0, gt=0)  # seconds before the second poll; grows 1.5x per poll
    batch_max_poll: float = Field(60.0, gt=0)  # at most this many seconds between polls
    batch_max_requests: int = Field(50_000, ge=1)  # requests per batch (OpenAI: 50,000)
    batch_max_bytes: int = Field(200_000_000, ge=1)  # bytes of one batch's input file (OpenAI: 200 MB)

    @field_validator("batch", mode="before")
    @classmethod
    def _batch_words(cls, value: Any) -> Any:
        return DecodingOptions._chat_words(value)

    @field_validator("base_url", mode="before")
    @classmethod
    def _split_urls(cls, value: Any) -> Any:
        items = value if isinstance(value, list) else [value]
        urls = [u.strip().rstrip("/") for item in items for u in str(item).split(",") if u.strip()]
        for url in urls:
            if not url.startswith(("http://", "https://")):
                raise ValueError(f"{url!r} is not an http:// or https:// URL")
        if not urls:
            raise ValueError("needs at least one URL")
        return urls


O = TypeVar("O", bound=DecodingOptions)


def parse_options(model: type[O], options: BackendOptions, backend: str) -> O:
    """Validate ``-O`` options into ``model``; a bad or unknown option is a one-line :class:`WapiiError`."""
    try:
        return model.model_validate(dict(options.extra))
    except ValidationError as exc:
        problems = []
        for error in exc.errors():
            where = ".".join(str(p) for p in error.get("loc", ())) or "options"
            if error.get("type") == "extra_forbidden":
                problems.append(f"unknown option {where!r} (known: {', '.join(sorted(model.model_fields))})")
            else:
                problems.append(f"option {where}: {error.get('msg', 'invalid')}")
        raise WapiiError(f"backend {backend}: " + "; ".join(problems)) from None
