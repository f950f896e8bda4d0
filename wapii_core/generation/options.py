"""Decoding options every model backend shares (``-O KEY=VALUE``), validated once at the CLI boundary.

:class:`DecodingOptions` holds the decoding parameters, chat mode and cache switches; a backend
derives its own options model from it (the ``openai`` backend adds the HTTP side, ``hf`` the
device and batching), so every backend accepts the same names with the same meaning.
:func:`parse_options` turns the strings ``-O`` gives into such a model, or one line of error.
"""

from __future__ import annotations

import re
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from wapii_core.generation.programs import STOP, is_chat_model
from wapii_core.base.errors import WapiiError
from wapii_core.base.protocols import BackendOptions

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}

SAMPLED_TEMPERATURE = 0.2
"""The paper's temperature when several draws are sampled per task."""


class DecodingOptions(BaseModel):
    """Decoding options shared by the model backends."""

    model_config = ConfigDict(extra="forbid")

    max_new_tokens: int = Field(250, ge=1)  # tokens a completion may have at most
    temperature: float | None = Field(None, ge=0)  # None: 0 (greedy) for one draw, 0.2 for several
    top_k: int | None = Field(None, ge=0)  # None: the backend's default (hf: 50; openai: not sent)
    top_p: float = Field(1.0, gt=0, le=1)  # nucleus sampling: the smallest set of tokens with this probability
    stop: str = STOP  # "" disables the stop string
    seed: int | None = None  # seed of sampled draws (None: 0)
    chat: Literal["auto", "true", "false"] = "auto"  # chat template and prompt (auto: from the model's name)
    system: Literal["split", "none"] = "none"  # chat only: one user message; split: first sentence as system message
    no_cache: bool = False  # generate again rather than answer from the generation cache
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
        raise WapiiError(f"backend {backend}: " + "; ".join(problems)
                         + f" (`wapii backends {backend} --options` says what each option means)") from None
