"""The plugin manager: discovers plugins through the ``wapii`` entry-point group, once, lazily."""

from __future__ import annotations

import importlib.metadata
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

import pluggy

from . import hookspecs
from .errors import UnknownNameError, did_you_mean

GROUP = "wapii"

pm = pluggy.PluginManager("wapii")
pm.add_hookspecs(hookspecs)

_lock = threading.Lock()
_loaded = False
failed_plugins: list[dict[str, str]] = []
"""Entry points that could not be loaded: ``{"name", "distribution", "error"}``."""


def load_plugins() -> pluggy.PluginManager:
    """Load every ``wapii`` entry point (once per process) and check every hook implementation.

    A plugin whose import fails is recorded in :data:`failed_plugins` (and shown by
    ``wapii plugins``) instead of breaking the CLI; a misspelled hook fails loudly through
    ``check_pending()``.
    """
    global _loaded
    with _lock:
        if _loaded:
            return pm
        for ep in importlib.metadata.entry_points(group=GROUP):
            if pm.get_plugin(ep.name) is not None:
                continue
            try:
                module = ep.load()
                pm.register(module, name=ep.name)
            except Exception as exc:  # noqa: BLE001 - a broken plugin must not break the host
                dist = ep.dist.name if ep.dist else "?"
                failed_plugins.append({"name": ep.name, "distribution": dist, "error": f"{type(exc).__name__}: {exc}"})
        pm.check_pending()
        _loaded = True
    return pm


@dataclass
class Entry:
    name: str
    value: Any
    plugin: str
    description: str = ""


@dataclass
class Registry:
    """Names registered through one ``register_*`` hook, filled on first use."""

    hook: str
    kind: str
    _entries: dict[str, Entry] | None = field(default=None, repr=False)

    def entries(self) -> dict[str, Entry]:
        if self._entries is None:
            manager = load_plugins()
            entries: dict[str, Entry] = {}
            for impl in getattr(manager.hook, self.hook).get_hookimpls():
                plugin_name = manager.get_name(impl.plugin) or "?"

                def register(name: str, value: Any, description: str = "", _plugin: str = plugin_name) -> None:
                    entries[name] = Entry(name, value, _plugin, description)

                impl.function(register)
            self._entries = entries
        return self._entries

    def get(self, name: str) -> Any:
        entries = self.entries()
        if name not in entries:
            known = ", ".join(sorted(entries)) or "none"
            raise UnknownNameError(f"unknown {self.kind} {name!r}{did_you_mean(name, list(entries))} (known: {known}; "
                                   "`wapii plugins` lists what is installed)")
        return entries[name].value

    def names(self) -> list[str]:
        return sorted(self.entries())


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
        for registry in (backends, adapters, metrics, datasets):
            mine = [e.name for e in registry.entries().values() if e.plugin == name]
            if mine:
                registered[registry.kind.replace("metric provider", "metric") + "s"] = sorted(mine)
        out.append({
            "name": name,
            "distribution": dist.name if dist else None,
            "version": dist.version if dist else None,
            "hooks": hooks,
            **registered,
        })
    for failure in failed_plugins:
        out.append({"name": failure["name"], "distribution": failure["distribution"], "error": failure["error"]})
    return out


Factory = Callable[..., Any]
