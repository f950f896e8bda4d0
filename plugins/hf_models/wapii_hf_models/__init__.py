"""wapii plugin: the ``hf`` backend for local Hugging Face transformers models (and ``wapii-tiny``).

Registered through the ``wapii`` entry-point group; torch and transformers are imported only when
a run asks for the backend, so ``wapii plugins`` and ``wapii --help`` stay fast.
"""

from __future__ import annotations

from typing import Any, Callable

from wapii_core.api import hookimpl


def _hf(options: Any, context: Any) -> Any:
    from .backend import HFBackend

    return HFBackend(options, context)


_hf.options_model = "wapii_hf_models.options:HFOptions"  # what `wapii backends hf --options` lists


@hookimpl
def register_backends(register: Callable[..., None]) -> None:
    register("hf", _hf, description="local Hugging Face transformers models: --model wapii-tiny (built "
             "locally on first use), a hub id or a local directory; batched, greedy by default")
