"""The plugin is found through the `wapii` entry-point group and registers a protocol-conforming adapter."""

from __future__ import annotations

from wapii_core.api import Adapter
from wapii_core.testing import adapters, conform
from wapii_axios_js.adapter import AxiosAdapter


def test_registered_through_entry_point() -> None:
    factory = adapters.get("axios_js")
    entry = adapters.entries()["axios_js"]
    assert entry.plugin == "axios_js"
    assert entry.description
    adapter = factory()
    assert isinstance(adapter, AxiosAdapter)
    assert adapter.name == "axios_js"


def test_implements_the_adapter_protocol() -> None:
    adapter = conform("adapter", AxiosAdapter())  # raises when a member is missing or has the wrong shape
    assert isinstance(adapter, Adapter) and adapter.default_mode == "reference"
