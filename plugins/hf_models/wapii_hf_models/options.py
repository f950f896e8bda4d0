"""Options of the ``hf`` backend (``-O KEY=VALUE``): the shared decoding options plus model loading."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from wapii_core.kits.models import DecodingOptions

DEFAULT_TOP_K = 50
"""The paper's top-k for sampled draws (and transformers' default)."""


class HFOptions(DecodingOptions):
    """Options of the ``hf`` backend; see the plugin's README for each one's meaning."""

    dtype: str = "auto"  # auto: bfloat16 (or float16) on a GPU, float32 on the CPU
    device: str = "auto"  # auto: cuda, else mps, else cpu; or e.g. cpu, cuda:1
    batch_size: int = Field(16, ge=1)  # prompts generated together
    threads: int | None = Field(None, ge=1)  # CPU threads for torch (None: torch's default)
    revision: str | None = None  # hub revision (branch, tag or commit)
    trust_remote_code: bool = False  # run the model repository's own Python code (only for models you trust)
    cache_implementation: Literal["auto", "static", "dynamic"] = "auto"  # auto: static on the CPU
    decoder_prompt: Literal["auto", "true", "false"] = "auto"  # encoder-decoder: feed the prompt to the decoder too
    constraint_timeout: float = Field(900.0, gt=0)  # constrained settings: wall-clock seconds per batch of samples
    prefill: bool = True  # chat: the assistant's turn begins with the starter code, which the model continues
    prefix_cache: bool = True  # compute the prompt prefix a batch shares once
    stop_at_call: bool = True  # stop a completion once the adapter cuts a complete call out of it

    @property
    def top_k_value(self) -> int:
        return DEFAULT_TOP_K if self.top_k is None else self.top_k
