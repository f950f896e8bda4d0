"""Options of the ``openai`` backend (``-O KEY=VALUE``): the shared decoding options plus the HTTP side."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from wapii_core.kits.models import DecodingOptions, parse_options

__all__ = ["OpenAIOptions", "parse_options"]


class OpenAIOptions(DecodingOptions):
    """Options of the ``openai`` backend."""

    base_url: list[str] = Field(default_factory=lambda: ["https://api.openai.com/v1"])  # servers, comma-separated
    api_key_env: str = "OPENAI_API_KEY"  # the environment variable holding the API key
    concurrency: int = Field(8, ge=1, le=1024)  # requests in flight at most (streaming: as many as the server serves)
    timeout: float = Field(120.0, gt=0)  # seconds without progress (streaming), else per answer
    stream: bool = True  # stream answers: queue and generation time apart, stop string cut here, no-progress timeout
    adaptive: bool = True  # streaming: keep as many requests in flight as the server serves, up to concurrency
    stop_at_call: bool = True  # streaming: stop an answer once the adapter cuts a complete call out of it (as hf)
    prefill: bool = False  # chat: begin the assistant's turn with the starter code (servers that continue it: vLLM)
    retries: int = Field(5, ge=0)  # retries after the first attempt
    backoff: float = Field(0.5, ge=0)  # seconds before the first retry; doubles each time
    max_backoff: float = Field(30.0, ge=0)  # at most this many seconds between retries
    max_retry_after: float = Field(600.0, ge=0)  # cap on a server's Retry-After
    max_tokens_param: Literal["max_tokens", "max_completion_tokens"] = "max_tokens"  # field of max_new_tokens
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
