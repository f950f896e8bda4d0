"""Fixtures for the openai backend's tests: the session's cache directory and a running test server."""

from __future__ import annotations

import uuid

import pytest

from fake_openai import OpenAIServer



@pytest.fixture
def server():
    with OpenAIServer() as running:
        yield running


@pytest.fixture
def model_name():
    """A model name no other test used, so the response cache starts empty for it."""
    return f"scripted-{uuid.uuid4().hex[:8]}"
