"""Whether a hub model can be loaded here, asked before anything is generated or written.

A hub id whose files are not in the local Hugging Face cache needs the hub; without a network,
``from_pretrained`` spends half a minute in retries before it fails. :func:`check_hub_model` answers
at once: a cached model passes; otherwise the hub's host (``$HF_ENDPOINT``, default
``https://huggingface.co``) must accept a TCP connection within a few seconds, and
``HF_HUB_OFFLINE`` set means it cannot be asked at all.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

from wapii_core.api import WapiiError

from .loading import hub_commit

DEFAULT_ENDPOINT = "https://huggingface.co"
CONNECT_TIMEOUT_S = 4.0
OFFLINE_VALUES = ("1", "true", "yes", "on")


def _why_unreachable(endpoint: str, timeout: float) -> str | None:
    parts = urlsplit(endpoint)
    host = parts.hostname
    if not host:
        return f"HF_ENDPOINT {endpoint!r} names no host"
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return None
    except OSError as exc:
        return f"{host}:{port} cannot be reached ({exc.strerror or type(exc).__name__})"


def check_hub_model(model: str, revision: str | None = None, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Passes when the hub model ``model`` is cached or the hub is reachable; else a one-line
    :class:`WapiiError` naming the model and how to use a local copy instead."""
    if hub_commit(model, revision) is not None:
        return
    how = (f"download it where there is a network (huggingface-cli download {model}) and pass its directory "
           f"as --model")
    if os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in OFFLINE_VALUES:
        raise WapiiError(f"--model {model}: not in the local Hugging Face cache, and HF_HUB_OFFLINE is set; {how}")
    problem = _why_unreachable(os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT, timeout)
    if problem is not None:
        raise WapiiError(f"--model {model}: not in the local Hugging Face cache, and the hub: {problem}; {how}")
