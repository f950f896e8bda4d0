"""A JSON file a user wrote (a declaration, a fault plan, a dataset's rules) read into its pydantic
model, or one line naming the file and what is wrong with it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from wapii_core.base.errors import InputError

M = TypeVar("M", bound=BaseModel)


def read_json_model(path: Path, model: type[M], what: str, text: str | None = None) -> M:
    """``model`` validated from the JSON file at ``path`` (or from ``text``, read from it elsewhere);
    an :class:`InputError` naming the file where it cannot be read, is not JSON or does not fit
    (``<what>: <where>: <problem>`` for the first problem)."""
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8") if text is None else text)
        return model.model_validate(raw)
    except OSError as exc:
        raise InputError(path, f"cannot read the {what}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise InputError(path, f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the file"
        raise InputError(path, f"{what}: {where}: {first['msg']}") from None
