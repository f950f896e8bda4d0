"""What an adapter can do, declared on it, so that the core, backends and tests ask it instead of
knowing adapters by name.

An adapter declares ``capabilities = AdapterCapabilities(...)`` (a class attribute will do); one
that declares none gets :func:`default_capabilities` when it is created
(:mod:`wapii_core.base.plugin_checks`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, field_validator

MODES = ("reference", "strict", "wire", "journal")
"""Comparison modes: the paper's (metrics.md), with literal URL matching, what goes on the wire (wire.py),
and the journal edition's (the paper's, where outside the body a one-element list equals its element)."""
ADAPTER_MODES = MODES[:3]
"""The modes an adapter's renderings are checked in unless it declares others: ``journal`` accepts
every request that ``reference`` does, so a rendering correct in one is correct in the other."""


class AdapterCapabilities(BaseModel):
    """What an adapter offers.

    - ``language``: the target language, lower case (``javascript``, ``python``, ``go``, ``java``);
      ``unknown`` when undeclared;
    - ``library``: the HTTP library as people name it (``axios``, ``requests``, ``net/http``);
    - ``single_call``: its extraction ends the call at a cut-off marker whatever follows it, so a
      backend may stop generating once the call is complete (the reference's axios rule,
      metrics.md §2); false where the statements after the call still change what runs;
    - ``constrained``: ``constraint(spec, setup)`` builds a grammar for constrained decoding; a
      ``--setting constrained`` run with an adapter that cannot is refused in one line;
    - ``modes``: the comparison modes its renderings are judged correct in (the oracle is checked
      in each; default: all but ``journal``, which accepts whatever ``reference`` does);
      ``default_mode`` (the adapter's own attribute) is one of them;
    - ``wire_capture``: its captures are what the library put on the wire, normalised by the core's
      ``normalise_wire_request`` (else an in-process capture of the library's request config);
    - ``system_packages``: Debian packages it needs (``libokhttp-java``); ``wapii setup`` installs the
      missing ones with apt before calling the adapter's ``setup()`` (as root), else names them in
      one line. Constructing the adapter must not need them;
    - ``answers``: ``execute(calls, responders)`` takes one
      :class:`~wapii_core.mock.exchange.Responder` per call (or None), delivers its answers to the
      program as its library shows a server's, runs the program to its end and records every
      exchange in the Capture (``exchanges``); the responder runs outside the program's reach. An
      adapter without it is only called as ``execute(calls)`` (the first-call benchmark);
    - ``code_context``: its prompts continue a task's real code (a sample's ``context``: the journal
      edition's real-world tasks, docs/datasets.md) and its ``with_definitions(call, definitions)``
      gives the source that runs the call after the task's definitions; a run of such a task with an
      adapter that cannot is refused in one line;
    - ``workflows``: it runs multi-step tasks (docs/workflows.md): ``prompt(sample, Setup.workflow,
      dataset)`` asks for a whole program, ``extract_program(code)`` gives that program in the form
      ``execute`` runs (uncut: every request it sends is answered and recorded), and
      ``render_workflow(calls, sample)`` writes the oracle's whole program, which reads each
      ``{{N.path}}`` reference from the answer to call N and retries a ``429`` after its
      ``Retry-After``. Requires ``answers``.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    language: str = "unknown"
    library: str = ""
    single_call: bool = False
    constrained: bool = False
    modes: tuple[str, ...] = ADAPTER_MODES
    wire_capture: bool = False
    system_packages: tuple[str, ...] = ()
    answers: bool = False
    code_context: bool = False
    workflows: bool = False

    @field_validator("language")
    @classmethod
    def _lower(cls, value: str) -> str:
        if not value or value != value.lower() or not value.replace("-", "").replace("+", "").isalnum():
            raise ValueError(f"language {value!r} is not a lower-case name")
        return value

    @field_validator("modes")
    @classmethod
    def _modes(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [mode for mode in value if mode not in MODES]
        if unknown or not value:
            raise ValueError(f"modes {list(value)} are not a non-empty selection of {', '.join(MODES)}")
        return value


def default_capabilities(adapter: Any) -> AdapterCapabilities:
    """What an adapter that declares nothing gets: an unknown language, constrained decoding where it
    has its own ``constraint``, every mode."""
    return AdapterCapabilities(constrained=callable(getattr(adapter, "constraint", None)))
