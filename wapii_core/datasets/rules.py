"""API-specific comparison rules, declared by a dataset (docs/datasets.md, "Comparison rules").

A dataset directory may hold ``rules.json``: ``{api: {"query_in_path": [...], "url_rewrites": [...]}}``.
``query_in_path`` names query parameters that the API's spec writes into its paths (Etherscan's
``/?module=account&action=balance``): before the URL is matched, they are moved from the query into
the path, in the order listed. ``url_rewrites`` are regular expressions applied to the URL, in order,
before it is matched (Telegram's ``/bot<token>/`` server path, FrankerFaceZ's ``/v1/emotes`` alias of
``/v1/emoticons``). Rules change how a URL resolves to an endpoint, nothing else: arguments are
compared as always. Without a ``rules.json`` of its own, a dataset gets the rules that the journal
edition's pipeline applies to its real-world APIs (:data:`JOURNAL_RULES`) for the APIs it has.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, RootModel, field_validator

from wapii_core.base.errors import InputError
from wapii_core.base.json_files import read_json_model

RULES_FILE = "rules.json"
JOURNAL_RULES = "journal_rules.json"
"""The bundled declaration of the journal edition's rules (Redocly/WAPIIBench ``validation.py``)."""


class UrlRewrite(BaseModel):
    """``re.sub(pattern, replacement, url)`` before the URL is matched."""

    model_config = ConfigDict(extra="forbid", strict=True)

    pattern: str = Field(min_length=1)
    replacement: str

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"not a regular expression: {exc}") from None
        return value


class ApiRules(BaseModel):
    """The comparison rules of one API."""

    model_config = ConfigDict(extra="forbid", strict=True)

    query_in_path: list[str] = Field(default_factory=list)
    url_rewrites: list[UrlRewrite] = Field(default_factory=list)


class DatasetRules(RootModel[dict[str, ApiRules]]):
    """``rules.json``: the rules per API."""


def load_rules(directory: Path, apis: set[str]) -> dict[str, ApiRules]:
    """The rules of the dataset in ``directory`` for ``apis``: its ``rules.json``, else the journal
    edition's for those of its APIs that have any; a one-line :class:`InputError` naming the file."""
    path = directory / RULES_FILE
    if path.is_file():
        text, source = path.read_text(encoding="utf-8"), path
    else:
        bundled = resources.files("wapii_core.datasets").joinpath(JOURNAL_RULES)
        text, source = bundled.read_text(encoding="utf-8"), Path(str(bundled))
    rules = read_json_model(source, DatasetRules, "dataset rules", text=text).root
    if path.is_file():
        unknown = sorted(set(rules) - apis)
        if unknown:
            raise InputError(source, f"rules for api '{unknown[0]}', which the dataset does not have")
    return {api: rule for api, rule in rules.items() if api in apis}
