"""The plugin manager: discovers plugins through the ``wapii`` entry-point group, once, lazily."""

from __future__ import annotations

import functools
import importlib.metadata
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

import pluggy

from wapii_core.base import hookspecs
from wapii_core.base.errors import UnknownNameError, did_you_mean
from wapii_core.base.plugin_checks import PluginClash, PluginError, conform, provider_problem, registration_problem

GROUP = "wapii"

pm = pluggy.PluginManager("wapii")
pm.add_hookspecs(hookspecs)

_lock = threading.Lock()
_loaded = False
failed_plugins: list[dict[str, str]] = []
"""Entry points that could not be loaded: ``{"name", "distribution", "error"}``."""
distributions: dict[str, str] = {}
"""The distribution that provides each loaded plugin (entry-point name -> distribution name)."""


def load_plugins() -> pluggy.PluginManager:
    """Load every ``wapii`` entry point (once per process) and check every hook implementation.

    A plugin whose import fails is recorded in :data:`failed_plugins` (and shown by
    ``wapii plugins``, and named in the error of any name the core then fails to find) instead of
    breaking the CLI; a misspelled hook fails loudly through ``check_pending()``.
    """
    global _loaded
    with _lock:
        if _loaded:
            return pm
        for ep in importlib.metadata.entry_points(group=GROUP):
            if pm.get_plugin(ep.name) is not None:
                continue
            dist = ep.dist.name if ep.dist else "?"
            try:
                module = ep.load()
                pm.register(module, name=ep.name)
                distributions[ep.name] = dist
            except Exception as exc:  # noqa: BLE001 - a broken plugin must not break the host
                failed_plugins.append({"name": ep.name, "distribution": dist, "error": f"{type(exc).__name__}: {exc}"})
        pm.check_pending()
        _loaded = True
    return pm


def plugin_label(plugin: str) -> str:
    """``plugin wapii-example-plugin (example)``: a plugin's distribution and entry-point name, for errors."""
    dist = distributions.get(plugin)
    return f"plugin {dist} ({plugin})" if dist and dist != plugin else f"plugin {plugin}"


def failures_note() -> str:
    """`` (plugin wapii-x failed to load: ModuleNotFoundError: ...)`` for every plugin whose import failed, or ``""``."""
    notes = [f"plugin {f['distribution']} failed to load: {f['error']}" for f in failed_plugins]
    return f" ({'; '.join(notes)})" if notes else ""


@dataclass
class Entry:
    """One registered name: its value, the plugin (entry-point name) that registered it, and
    ``problem``: why it cannot be used (it breaks its protocol, or two plugins registered the name)."""

    name: str
    value: Any
    plugin: str
    description: str = ""
    problem: str | None = None
    default: bool = True  # metric providers: applied unless --no-default-metrics (else only with --metric)
    clash: bool = False  # the problem is that two plugins registered the name (a PluginClash when used)


@dataclass
class Registry:
    """Names registered through one ``register_*`` hook, filled on first use.

    Each registration is checked against its protocol (:mod:`wapii_core.base.plugin_checks`); a name
    registered twice is kept with a problem naming both plugins. Either problem is reported, as
    one line naming the plugin, when the name is used (and by ``wapii plugins``), so that one broken
    plugin does not stop runs that do not use it.
    """

    hook: str
    kind: str
    _entries: dict[str, Entry] | None = field(default=None, repr=False)

    def entries(self) -> dict[str, Entry]:
        if self._entries is None:
            manager = load_plugins()
            entries: dict[str, Entry] = {}
            impls = getattr(manager.hook, self.hook).get_hookimpls()  # only to tell whose registration is whose
            for impl in impls:
                others = [other.plugin for other in impls if other.plugin is not impl.plugin]
                call = manager.subset_hook_caller(self.hook, remove_plugins=others)  # pluggy calls the hook
                call(register=functools.partial(self._register, entries, manager.get_name(impl.plugin) or "?"))
            self._entries = entries
        return self._entries

    def _register(self, entries: dict[str, Entry], plugin: str, name: str, value: Any, description: str = "",
                  default: bool = True) -> None:
        """``register(name, value, description="", default=True)`` as ``plugin``'s hook calls it."""
        entry = Entry(name, value, plugin, description, registration_problem(self.kind, value), bool(default))
        if name in entries:
            both = sorted({plugin_label(entries[name].plugin), plugin_label(plugin)})
            entry.problem = f"{self.kind} {name!r} is registered by both {' and '.join(both)}; uninstall one of them"
            entry.clash = True
        entries[name] = entry

    def entry(self, name: str) -> Entry:
        """The usable entry of ``name``; a one-line :class:`WapiiError` when there is none."""
        entries = self.entries()
        if name not in entries:
            known = ", ".join(sorted(entries)) or "none"
            raise UnknownNameError(f"unknown {self.kind} {name!r}{did_you_mean(name, list(entries))} (known: {known}; "
                                   f"`wapii plugins` lists what is installed){failures_note()}")
        entry = entries[name]
        if entry.clash:
            raise PluginClash(entry.problem)
        if entry.problem is not None:
            raise PluginError(f"{plugin_label(entry.plugin)}: {self.kind} {name!r} {entry.problem}")
        return entry

    def get(self, name: str) -> Any:
        """What ``name`` was registered with; for adapters and backends, a factory whose instances are
        checked against their protocol and handed over completed with the defaults of optional members
        (:class:`~wapii_core.base.plugin_checks.Completed`)."""
        entry = self.entry(name)
        if self.kind == "metric provider":
            problem = provider_problem(entry.value)
            if problem:
                raise PluginError(f"{plugin_label(entry.plugin)}: {self.kind} {name!r} {problem}")
        if self.kind not in ("adapter", "backend"):
            return entry.value
        return functools.partial(_create, self.kind, entry)

    def names(self) -> list[str]:
        return sorted(self.entries())


def _create(kind: str, entry: Entry, *args: Any, **kwargs: Any) -> Any:
    """``entry.value(*args, **kwargs)``, conformed to the protocol of ``kind``."""
    instance = entry.value(*args, **kwargs)
    try:
        return conform(kind, instance)
    except PluginError as exc:
        raise PluginError(f"{plugin_label(entry.plugin)}: {kind} {entry.name!r} {exc}") from None


backends = Registry("register_backends", "backend")
adapters = Registry("register_adapters", "adapter")
metrics = Registry("register_metrics", "metric provider")
datasets = Registry("register_datasets", "dataset")


def register_commands(app: Any) -> None:
    """Let every plugin add its commands to the typer ``app``."""
    load_plugins().hook.register_commands(app=app)


def describe_plugins() -> list[dict[str, Any]]:
    """What ``wapii plugins`` prints: each loaded plugin with version and hooks, and each failure."""
    manager = load_plugins()
    out: list[dict[str, Any]] = []
    dists = {ep.name: ep.dist for ep in importlib.metadata.entry_points(group=GROUP)}
    for name, plugin in manager.list_name_plugin():
        dist = dists.get(name)
        hooks = sorted(h.name for h in manager.get_hookcallers(plugin) or [])
        registered: dict[str, list[str]] = {}
        problems: dict[str, str] = {}
        for registry in (backends, adapters, metrics, datasets):
            mine = [e.name for e in registry.entries().values() if e.plugin == name]
            if mine:
                registered[registry.kind.replace("metric provider", "metric") + "s"] = sorted(mine)
            problems.update({f"{registry.kind} {e.name}": e.problem for e in registry.entries().values()
                             if e.plugin == name and e.problem})
        out.append({
            "name": name,
            "distribution": dist.name if dist else None,
            "version": dist.version if dist else None,
            "hooks": hooks,
            **registered,
            **({"problems": problems} if problems else {}),
        })
    for failure in failed_plugins:
        out.append({"name": failure["name"], "distribution": failure["distribution"], "error": failure["error"]})
    return out


Factory = Callable[..., Any]
