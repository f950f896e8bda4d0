"""Fixtures for the hf backend's tests: the session's cache directory, wapii-tiny, small requests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wapii_core.api import GenerationRequest, Prompt, Sample

INSTRUCTIONS = "You are an AI programming assistant. Complete the following code snippet:\n\n```javascript\n"
TASKS = ["List all books", "Get the book with ID 42 and its reviews in German",
         "Delete the loan with ID ln_7", "Create a reader named Ada Lovelace with the email ada@example.org",
         "Find books published after 2015 about tides, sorted by title, 20 per page", "Renew loan 9"]



def machine_model_cache() -> Path:
    """Converted models kept between test runs on this machine: ``$WAPII_TEST_MODEL_CACHE``, else
    ``$XDG_CACHE_HOME/wapii-test/models`` (``~/.cache/wapii-test/models``)."""
    explicit = os.environ.get("WAPII_TEST_MODEL_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "wapii-test" / "models"


def converted_once_per_machine(gguf_file: Path) -> Path:
    """The session cache's converted model of ``gguf_file``: linked to the machine's copy (keyed by
    the file's sha256) when one is there; otherwise converted as a user's run converts it, then
    copied there for the next test run. An empty or missing machine cache only costs the conversion."""
    import shutil
    import tempfile

    from wapii_hf_models import gguf

    sha256 = gguf.file_sha256(gguf_file)
    target = gguf.converted_root() / sha256[:16]
    kept = machine_model_cache() / sha256
    if not gguf._is_converted(target, sha256) and gguf._is_converted(kept, sha256):
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_symlink() or target.exists():
            shutil.rmtree(target, ignore_errors=True) if not target.is_symlink() else target.unlink()
        target.symlink_to(kept, target_is_directory=True)
        return target
    converted = gguf.converted_dir(gguf_file)
    if not gguf._is_converted(kept, sha256):
        try:
            kept.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{sha256[:16]}.", dir=kept.parent))
            shutil.copytree(converted, staging, dirs_exist_ok=True)
            shutil.rmtree(kept, ignore_errors=True)  # a stale recipe
            os.rename(staging, kept)
        except OSError:  # a read-only home or a concurrent run: the next run converts again
            shutil.rmtree(staging, ignore_errors=True)
    return converted


@pytest.fixture
def convert_once_per_machine():
    """:func:`converted_once_per_machine`, for test modules (which cannot import conftest)."""
    return converted_once_per_machine


@pytest.fixture
def tiny_dir() -> Path:
    """wapii-tiny, built into the session cache on first use."""
    from wapii_hf_models import tiny

    return tiny.ensure_built()


@pytest.fixture(scope="session", autouse=True)
def _one_thread():
    """One torch thread: on a shared 2-core machine more threads only spin against each other."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def make_requests(count: int = len(TASKS), draws: int = 1, setup_tail: str = "\naxios.") -> list[GenerationRequest]:
    """Requests with prompts of different lengths (the wapiibench prompt's shape, shortened)."""
    out = []
    for i in range(count):
        task = TASKS[i % len(TASKS)]
        starter = f"// {task}\nconst axios = require('axios');\n{setup_tail}"
        sample = Sample(api="demo", index=i, task=task, config={"url": "u", "method": "get", "headers": {}})
        for d in range(draws):
            out.append(GenerationRequest(sample=sample, draw=d, prompt=Prompt(
                text=INSTRUCTIONS + starter, starter=starter, instructions=INSTRUCTIONS)))
    return out


@pytest.fixture
def make_reqs():
    """:func:`make_requests`, for test modules (which cannot import conftest)."""
    return make_requests
