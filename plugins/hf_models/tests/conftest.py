"""Fixtures for the hf backend's tests: the session's cache directory, wapii-tiny, small requests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wapii_core.base.model import GenerationRequest, Prompt, Sample

INSTRUCTIONS = "You are an AI programming assistant. Complete the following code snippet:\n\n```javascript\n"
TASKS = ["List all books", "Get the book with ID 42 and its reviews in German",
         "Delete the loan with ID ln_7", "Create a reader named Ada Lovelace with the email ada@example.org",
         "Find books published after 2015 about tides, sorted by title, 20 per page", "Renew loan 9"]



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
