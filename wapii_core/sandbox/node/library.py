"""What a JavaScript adapter tells the sandboxed Node runtime about its library.

The runtime (worker, realm, shims, capture kit) is library-neutral; an adapter describes its side
with a :class:`NodeLibrary`: the npm packages to install (its ``package.json`` and
``package-lock.json``), the hook module that sets the library up in each run's context and records
every request it sends (see ``js/realm/session.js``), the prelude that binds what the program sees,
and a few warm-up calls.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from wapii_core.base.node_tools import PACKAGE_FILES

RUNTIME_PACKAGES = ("buffer", "events", "path-browserify", "querystring-es3", "whatwg-url")
"""npm packages the runtime's own stand-ins for Node's built-in modules load: every library's
``package.json`` lists them (the versions are the library's to pin)."""


class NodeLibrary(BaseModel):
    """One JavaScript library as the runtime runs it.

    - ``name``: the adapter's name (names its worker pool and its install directory);
    - ``dir``: a directory holding ``package.json``, ``package-lock.json`` (the pinned npm packages,
      :data:`RUNTIME_PACKAGES` among them) and the hook module;
    - ``hook``: the hook module's file name in ``dir``: it exports
      ``function setUp({require, record, known})`` returning the bindings of the prelude; it and the
      modules it loads name the runtime's own modules ``wapii-kit/<module>``;
    - ``finish``: optionally, a module's file name in ``dir`` run in the worker's own realm (never
      the program's) on each kept request, as JSON data: its ``finish(request)`` returns the request
      as judged or throws an Error whose message is the call's ``runtime_error`` detail (a library
      whose own parsing must not run with the program's built-ins, e.g. fetch's URL parser);
    - ``prelude``: JavaScript put before every program, e.g.
      ``const axios = __wapii__.axios;\\n`` (``__wapii__`` holds what the hook returned);
    - ``packages``: the npm packages a program may ``require`` by name (besides Node's built-ins;
      installed by the lock, directly or as a dependency);
    - ``warm_up``: calls run once per worker at start-up, each of which must issue a request;
    - ``version_of``: the npm package whose version the worker reports (``wapii doctor``).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    dir: Path
    hook: str = "hook.js"
    finish: str | None = None
    prelude: str
    packages: tuple[str, ...] = ()
    warm_up: tuple[str, ...] = Field(min_length=1)
    version_of: str | None = None

    @field_validator("dir")
    @classmethod
    def _absolute(cls, value: Path) -> Path:
        return value.resolve()

    @model_validator(mode="after")
    def _complete(self) -> NodeLibrary:
        files = (*PACKAGE_FILES, self.hook, *([self.finish] if self.finish else []))
        missing = [name for name in files if not (self.dir / name).is_file()]
        if missing:
            raise ValueError(f"the {self.name} library's directory {self.dir} lacks {', '.join(missing)}")
        declared = json.loads((self.dir / "package.json").read_text(encoding="utf-8")).get("dependencies") or {}
        lacking = [name for name in RUNTIME_PACKAGES if name not in declared]
        if lacking:
            raise ValueError(f"{self.dir / 'package.json'} does not depend on {', '.join(lacking)} "
                             "(the packages of the runtime's stand-ins for Node's built-in modules)")
        return self

    def worker_argument(self) -> str:
        """The library as the worker reads it (``js/worker.js``: its second argument)."""
        return json.dumps({"name": self.name, "dir": str(self.dir), "hook": self.hook, "finish": self.finish,
                           "packages": list(self.packages),
                           "prelude": self.prelude, "warm_up": list(self.warm_up), "version_of": self.version_of})
