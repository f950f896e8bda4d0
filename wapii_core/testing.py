"""What a plugin's tests use: the public testing module for plugin authors (like pytest's ``pytester``).

A plugin's tests judge programs through their adapter as a run does, run small runs, load the demo
and WAPIIBench datasets, run the conformance kit on their adapter (the oracle self-test, replay
corpora, hostile programs, answered exchanges), and check grammars and constraints, all through
this module, never through the core's internals::

    from wapii_core.testing import Judge, RunConfig, check_adapter, load_demo, run

Names are imported on first use, like :mod:`wapii_core.api`'s. :data:`TESTING_VERSION` versions
them the semver way (``docs/changelog.md``).
"""

from __future__ import annotations

from wapii_core.base.lazy import lazy_exports

TESTING_VERSION = "1.0"
"""This module's version, ``MAJOR.MINOR``: MINOR grows when names are added, MAJOR when one is
removed or changes incompatibly."""

_WHERE: dict[str, str] = {
    # Runs: a configuration, a run, the dataset it reads, judging a program as a run does.
    "RunConfig": "wapii_core.run.runner", "run": "wapii_core.run.runner",
    "load_dataset": "wapii_core.run.runner", "Judge": "wapii_core.run.runner",
    # The built-in datasets and the setups a one-call task is run under.
    "load_demo": "wapii_core.datasets.loader", "load_wapiibench": "wapii_core.datasets.loader",
    "CALL_SETUPS": "wapii_core.base.setups",
    # The mock a spec answers programs with.
    "SpecMock": "wapii_core.mock.spec_mock",
    # Registered plugins, and an object checked against its protocol as the core checks it.
    "adapters": "wapii_core.base.plugins", "backends": "wapii_core.base.plugins",
    "conform": "wapii_core.base.plugin_checks", "default_mode": "wapii_core.judge.generations",
    # The conformance kit an adapter runs on itself: the oracle self-test, replay corpora, hostile programs.
    "check_adapter": "wapii_core.run.conformance", "ConformanceReport": "wapii_core.run.conformance",
    "CheckOutcome": "wapii_core.run.conformance", "oracle_checks": "wapii_core.run.conformance",
    "ReplayCorpus": "wapii_core.run.conformance", "replay_check": "wapii_core.run.conformance",
    "HostileProgram": "wapii_core.run.conformance", "hostile_check": "wapii_core.run.conformance",
    "ExchangeProgram": "wapii_core.run.conformance", "exchange_check": "wapii_core.run.conformance",
    "CreateReadResponder": "wapii_core.run.conformance", "mock_exchange_check": "wapii_core.run.conformance",
    # Grammars and constraints: does a grammar accept a text, does a constraint let through what it must not.
    "accepts": "wapii_core.grammar", "constraint_breaches": "wapii_core.grammar.audit",
    "own_endpoint_illegal": "wapii_core.grammar.audit",
}
"""Where each name lives (imported on first use)."""

__all__ = sorted([*_WHERE, "TESTING_VERSION"])

__getattr__, __dir__ = lazy_exports(__name__, _WHERE, "wapii_core.testing has no {name!r}")
