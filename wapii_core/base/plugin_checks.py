"""Checking what a plugin registers against the protocols, once, so the core never probes for members.

Each protocol of :mod:`wapii_core.base.protocols` is declared here as a table of :class:`Member`\\ s:
required or optional, an attribute (with its type) or a method (with the positional arguments the
core passes). :func:`registration_problem` checks what ``register(name, value)`` receives (a
metric provider in full; an adapter or backend class's methods; a factory is callable; a dataset
loader and its optional ``fetch``). :func:`conform` checks an adapter or backend when its factory
creates it and hands the core a :class:`Completed`: the plugin, with the documented default of each
optional member it lacks (the plugin's instance itself is left as it is), so that ``adapter.close()``,
``adapter.default_mode``, ``backend.preflight(...)`` or ``adapter.render(..., mode=...)`` are always
there to call.

A problem is one line naming the member and what is wrong with it; :mod:`wapii_core.base.plugins`
prefixes the plugin's distribution and the registered name.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from wapii_core.base.errors import WapiiError
from wapii_core.base.metric_kinds import Metric
from wapii_core.base.backend_kinds import BACKEND_KINDS, GENERATES


class PluginError(WapiiError):
    """What a plugin registered does not follow its protocol (or clashes with another plugin)."""


class PluginClash(PluginError):
    """Two plugins registered the same name (the message names both)."""


@dataclass(frozen=True)
class Member:
    """One member of a protocol.

    ``call``: the positional parameter names the core passes (a method), or ``None`` (an attribute
    of type ``kind``). ``default(instance)``: what an optional member an instance lacks becomes.
    """

    name: str
    call: tuple[str, ...] | None = None
    kind: type | tuple[type, ...] = object
    default: Callable[[Any], Any] | None = None

    @property
    def optional(self) -> bool:
        return self.default is not None

    def signature(self) -> str:
        return self.name if self.call is None else f"{self.name}({', '.join(self.call)})"


def _nothing(*_args: Any, **_kwargs: Any) -> None:
    return None


def _cannot_constrain(instance: Any) -> Callable[..., Any]:
    def constraint(*_args: Any, **_kwargs: Any) -> Any:
        raise WapiiError(f"adapter {instance.name!r} cannot constrain generation (it has no constraint(spec, setup))")
    return constraint


def _default_capabilities(instance: Any) -> Any:
    from wapii_core.base.capabilities import default_capabilities  # (pydantic: not at start-up)

    return default_capabilities(instance)


ADAPTER = (
    Member("name", kind=str),
    Member("prompt", ("sample", "setup", "dataset")),
    Member("extract", ("code",)),
    Member("execute", ("calls",)),
    Member("normalise", ("request",)),
    Member("render", ("config", "setup", "sample")),
    Member("setup", ()),
    Member("default_mode", kind=str, default=lambda _: "reference"),
    Member("capabilities", default=_default_capabilities),  # before constraint: its default asks for one
    Member("constraint", ("spec", "setup"), default=_cannot_constrain),
    Member("isolation", (), default=lambda _: _nothing),
    Member("start", (), default=lambda _: _nothing),
    Member("close", (), default=lambda _: _nothing),
)
BACKEND = (
    Member("name", kind=str),
    Member("supports_constraints", kind=bool),
    Member("generate", ("requests",)),
    Member("describe", ()),
    Member("kind", kind=str, default=lambda _: GENERATES),
    Member("preflight", ("requests",), default=lambda _: _nothing),
    Member("tasks", (), default=lambda _: _nothing),
    Member("close", (), default=lambda _: _nothing),
)
METRIC_PROVIDER = (
    Member("values", kind=Mapping),
    Member("aggregate", ("results", "dataset")),
    Member("top_level", kind=bool, default=lambda _: False),
)


def _accepts(function: Any, call: tuple[str, ...], **keywords: Any) -> bool:
    """Whether ``function`` can be called with ``len(call)`` positional arguments (and ``keywords``)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):  # a builtin without a signature: take it on trust
        return True
    try:
        signature.bind(*([None] * len(call)), **keywords)
    except TypeError:
        return False
    return True


def member_problem(obj: Any, member: Member, *, on_class: bool = False) -> str | None:
    """What is wrong with ``member`` of ``obj`` (None: nothing, or an optional member it lacks).

    ``on_class``: ``obj`` is a class about to be instantiated; only its methods are checked (its
    attributes may be set by ``__init__``)."""
    if not hasattr(obj, member.name):
        if member.optional or (on_class and member.call is None):
            return None
        return f"lacks {'method ' if member.call is not None else 'attribute '}{member.signature()}"
    value = getattr(obj, member.name)
    if member.call is None:
        if on_class or isinstance(value, member.kind):
            return None
        return f"attribute {member.name} is {type(value).__name__}, not {getattr(member.kind, '__name__', member.kind)}"
    if not callable(value):
        return f"{member.name} is {type(value).__name__}, not a method {member.signature()}"
    if on_class:
        try:
            value = inspect.getattr_static(obj, member.name)
        except AttributeError:
            return None
        if isinstance(value, (staticmethod, classmethod)):
            value = getattr(obj, member.name)
        elif callable(value):
            value = functools.partial(value, None)  # the unbound method: ``self`` is bound
    if not _accepts(value, member.call):
        return f"method {member.name} cannot be called as {member.signature()}"
    return None


def members_problem(obj: Any, members: tuple[Member, ...], *, on_class: bool = False) -> str | None:
    """The first problem of any member of ``obj`` (None when it follows the protocol)."""
    for member in members:
        problem = member_problem(obj, member, on_class=on_class)
        if problem:
            return problem
    return None


def _metric_values_problem(provider: Any) -> str | None:
    for key, metric in provider.values.items():
        if not isinstance(key, str) or not isinstance(metric, Metric):
            return (f"values[{key!r}] is {type(metric).__name__}, not a Metric(kind, description) "
                    "(from wapii_core.api)")
    return None


def provider_problem(provider: Any) -> str | None:
    """What is wrong with a metric provider (checked in full when a run uses it: its ``values`` may
    be computed on first use, importing the module that declares them)."""
    return members_problem(provider, METRIC_PROVIDER) or _metric_values_problem(provider)


def registration_problem(kind: str, value: Any) -> str | None:
    """What is wrong with ``value`` registered as a ``kind`` (``backend``, ``adapter``,
    ``metric provider``, ``dataset``), as far as it can be seen before it is created or used
    (a metric provider's ``values`` only by its presence, so that registering imports nothing)."""
    if kind == "metric provider":
        try:
            inspect.getattr_static(value, "values")
        except AttributeError:
            return "lacks attribute values"
        return members_problem(value, tuple(m for m in METRIC_PROVIDER if m.call is not None))
    if not callable(value):
        return f"is {type(value).__name__}, not a callable factory"
    if kind == "dataset":
        if not _accepts(value, ("data_dir",)):
            return "loader cannot be called as loader(data_dir)"
        fetch = getattr(value, "fetch", None)
        if fetch is not None and (not callable(fetch) or not _accepts(fetch, ("data_dir",))):
            return "fetch cannot be called as fetch(data_dir, base_url=None)"
        return None
    if kind == "backend" and getattr(value, "kind", GENERATES) not in BACKEND_KINDS:
        return f"kind {getattr(value, 'kind')!r} is not one of {', '.join(BACKEND_KINDS)}"
    if kind in ("adapter", "backend") and inspect.isclass(value):
        members = ADAPTER if kind == "adapter" else BACKEND
        return members_problem(value, members, on_class=True)
    return None


def _render_with_mode(render: Callable[..., str]) -> Callable[..., str]:
    """``render`` of an adapter that renders the same program in every mode, taking (and ignoring) ``mode``."""
    @functools.wraps(render)
    def with_mode(config: Any, setup: Any, sample: Any, mode: str = "reference") -> str:
        del mode
        return render(config, setup, sample)
    return with_mode


def _adapter_problem(adapter: Any) -> str | None:
    """What is wrong with an adapter's ``default_mode`` and declared ``capabilities`` (None: nothing)."""
    from wapii_core.base.capabilities import MODES, AdapterCapabilities  # (pydantic: not at start-up)

    mode = getattr(adapter, "default_mode", "reference")
    if mode not in MODES:
        return f"default_mode {mode!r} is not one of {', '.join(MODES)}"
    if not hasattr(adapter, "capabilities"):
        return None
    declared = adapter.capabilities
    if not isinstance(declared, AdapterCapabilities):
        return (f"attribute capabilities is {type(declared).__name__}, not an AdapterCapabilities "
                "(from wapii_core.api)")
    if mode not in declared.modes:
        return f"default_mode {mode!r} is not one of its capabilities.modes ({', '.join(declared.modes)})"
    if declared.constrained and not callable(getattr(adapter, "constraint", None)):
        return "capabilities.constrained is true but it lacks method constraint(spec, setup)"
    return None


class Completed:
    """An adapter or backend as the core holds it: the plugin's own members, and the protocol's default
    of each optional member the plugin lacks; an adapter's ``render`` takes ``mode`` whether or not the
    plugin's does (:func:`conform` makes one).

    The plugin's instance is never changed: the defaults live here, the one place a plugin is completed
    (base classes such as ``NodeAdapterBase`` are shared implementations, not completion). Everything
    else is the plugin's: reading and setting an attribute reach the plugin, ``isinstance`` sees the
    plugin's class, and ``with`` enters and exits the plugin."""

    __slots__ = ("_wapii_plugin", "_wapii_given", "__weakref__")

    def __init__(self, plugin: Any, given: dict[str, Any]) -> None:
        object.__setattr__(self, "_wapii_plugin", plugin)
        object.__setattr__(self, "_wapii_given", given)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_wapii_"):  # not set yet (a copy being made): no delegation
            raise AttributeError(name)
        given = self._wapii_given
        if name in given:
            return given[name]
        return getattr(self._wapii_plugin, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._wapii_plugin, name, value)

    def __delattr__(self, name: str) -> None:
        delattr(self._wapii_plugin, name)

    def __dir__(self) -> list[str]:
        return sorted({*dir(self._wapii_plugin), *self._wapii_given})

    def __repr__(self) -> str:
        return repr(self._wapii_plugin)

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:  # a copy is a Completed of the same plugin
        return Completed, (self._wapii_plugin, self._wapii_given)

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # isinstance(completed, ThePluginsClass) holds
        return type(self._wapii_plugin)

    def __enter__(self) -> "Completed":
        type(self._wapii_plugin).__enter__(self._wapii_plugin)
        return self

    def __exit__(self, *exc_info: object) -> Any:
        return type(self._wapii_plugin).__exit__(self._wapii_plugin, *exc_info)


def plugin_of(instance: Any) -> Any:
    """The plugin's own instance inside a :class:`Completed` (``instance`` itself otherwise)."""
    try:
        return object.__getattribute__(instance, "_wapii_plugin")
    except AttributeError:
        return instance


def conform(kind: str, instance: Any) -> Any:
    """``instance`` (an ``adapter`` or ``backend``), checked, as the core holds it: a :class:`Completed`
    with the defaults of the optional members it lacks; a :class:`PluginError` (without the plugin's
    name) when it does not follow its protocol."""
    instance = plugin_of(instance)
    members = ADAPTER if kind == "adapter" else BACKEND
    problem = members_problem(instance, members)
    if problem is None and kind == "adapter":
        problem = _adapter_problem(instance)
    if problem:
        raise PluginError(problem)
    given = {member.name: member.default(instance) for member in members
             if member.optional and not hasattr(instance, member.name)}
    if kind == "adapter" and not _accepts(instance.render, ("config", "setup", "sample"), mode="reference"):
        given["render"] = _render_with_mode(instance.render)
    return Completed(instance, given)
