"""What a backend's ``-O`` options mean, read from its options model (``wapii backends NAME --options``).

A field's meaning is its ``Field(description=...)``, else the comment beside it in the model's
source (``max_new_tokens: int = Field(250, ge=1)  # ...``), else the comment lines just above it;
the models of the built-in backends document their fields that way.
"""

from __future__ import annotations

import importlib
import inspect
import io
import tokenize
from typing import Any

from pydantic import BaseModel


def load_options_model(path: str) -> type[BaseModel]:
    """The class a ``"module:Class"`` path names."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def _comments(cls: type) -> dict[str, str]:
    """Field name -> the comment beside (or just above) its annotation in ``cls``'s own source."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    out: dict[str, str] = {}
    above: list[str] = []
    line_field: dict[int, str] = {}
    for line_number, line in enumerate(source.splitlines(), 1):
        stripped = line.strip()
        head = stripped.split(":", 1)[0]
        if line.startswith("    ") and not line.startswith("     ") and head.isidentifier() and ":" in stripped \
                and not stripped.startswith(("def ", "class ", "@", "#")):
            line_field[line_number] = head
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        text = token.string.lstrip("#").strip()
        field = line_field.get(token.start[0])
        if field is not None:
            out[field] = text
        elif token.line.strip().startswith("#"):
            above.append(text)
            following = line_field.get(token.start[0] + 1)
            if following is not None:
                out.setdefault(following, " ".join(above))
                above = []
    return out


def option_rows(model: type[BaseModel]) -> list[tuple[str, str, str, str]]:
    """``(name, type, default, meaning)`` per option of ``model``, in declaration order."""
    comments: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        if isinstance(cls, type) and issubclass(cls, BaseModel) and cls is not BaseModel:
            comments.update(_comments(cls))
    rows = []
    for name, field in model.model_fields.items():
        default: Any = field.get_default(call_default_factory=True)
        shown = "" if default is None else repr(default) if isinstance(default, str) else str(default)
        rows.append((name, _type_name(field.annotation), shown, field.description or comments.get(name, "")))
    return rows


def _type_name(annotation: Any) -> str:
    """``int``, ``float | None``, ``'auto' | 'true' | 'false'``: the type as a user writes the value."""
    import typing

    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal:
        return " | ".join(repr(a) for a in args)
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        return " | ".join(_type_name(a) for a in args)
    if annotation is type(None):
        return "None"
    if origin is list:
        return f"list of {_type_name(args[0])}" if args else "list"
    return getattr(annotation, "__name__", str(annotation))
