"""wapii plugin: the ``openai`` backend for any OpenAI-compatible server.

Registered through the ``wapii`` entry-point group; urllib3 and the backend are imported only when
a run asks for the backend, so ``wapii plugins`` and ``wapii --help`` stay fast.
"""

from __future__ import annotations

from typing import Any, Callable

from wapii_core.api import hookimpl


def _openai(options: Any, context: Any) -> Any:
    from .backend import OpenAIBackend

    return OpenAIBackend(options, context)


_openai.options_model = "wapii_openai_models.options:OpenAIOptions"  # what `wapii backends openai --options` lists


@hookimpl
def register_backends(register: Callable[..., None]) -> None:
    register("openai", _openai, description="any OpenAI-compatible server (OpenAI, vLLM, TGI, llama.cpp, "
             "OpenRouter): -O base_url=URL[,URL...], key from $OPENAI_API_KEY (-O api_key_env=VAR)")
