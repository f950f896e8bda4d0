"""Judging hostile programs from outside the sandbox: canaries that only an escape can trip.

- a watched folder that must stay empty (programs try to write into it);
- a TCP server on 127.0.0.1 that counts connections (programs try to reach it);
- canary strings that must appear in no stored result: a secret set in the environment of the
  process that runs the sandbox, the entries of that process's environment as the kernel shows it
  to other processes, and the lines of the host's ``/etc/passwd``;
- leftover processes: descendants of this process, and any process whose command line carries
  the run's marker (programs start commands that carry it);
- a mount over the watched folder (programs try to mount a file system there);

and the corpus itself: ``js/*.js`` and ``py/*.py``, each first line stating ``expect: <error>``,
optionally followed by ``(landlock)`` when only Landlock gives that error (such programs are left
out where the kernel has no Landlock: there, without bubblewrap, the audit hook alone refuses them,
which ``wapii doctor`` reports), with ``__CANARY_DIR__``, ``__CANARY_PORT__`` and ``__MARKER__``
filled in per run. A program that tries to be judged on a request it did not send names that
request ``__FORGE__`` (and the one it tries to impose on the next call ``__FORGE_NEXT__``):
:meth:`Program.aimed_at` fills them in, by default with the request of ``aims: <name>`` on the first
line (:data:`FORGES`, e.g. ``expect: not_correct aims: form``), else :data:`FORGE_DEFAULT`.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

CORPUS = Path(__file__).resolve().parent
SECRET_ENV = "WAPII_TEST_SECRET"


FORGE_DEFAULT = {"url": "https://api.example.com/forged", "method": "get",
                 "headers": {"Accept": "application/json, text/plain, */*", "X-Forged": "yes"},
                 "params": {"forged": "1"}}
"""What a forging program aims at when no sample's expected request is given."""

FORGES = {
    "form": {"url": "https://api.example.com/forged", "method": "post", "headers": {"X-Forged": "yes"},
             "data": {"forged": "1"}},
}
"""Other requests a program may aim at (``aims: <name>``): ``form``, a POST whose body decodes to
``{"forged": "1"}`` (as a form or multipart), for programs that send another body and try to have it
recorded as this one."""


def js_literal(value: object) -> str:
    """``value`` as a JavaScript expression that holds none of the axios extractor's cut markers:
    JSON whose strings escape every character but letters and digits."""
    def escape(text: str) -> str:
        units = text.encode("utf-16-be")
        codes = (int.from_bytes(units[i:i + 2], "big") for i in range(0, len(units), 2))
        return '"' + "".join(chr(u) if chr(u).isascii() and chr(u).isalnum() else f"\\u{u:04x}" for u in codes) + '"'

    if isinstance(value, str):
        return escape(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{escape(k)}: {js_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(js_literal(v) for v in value) + "]"
    return json.dumps(value)


@dataclass
class Program:
    name: str
    code: str
    expect: str  # the error kind (for "blocked", a prefix of "blocked: <what>"); see run_corpus.problems
    needs: str = ""  # "landlock": the expected error needs Landlock
    aims: str = ""  # a name of FORGES: the request it tries to be judged on when none is given

    @property
    def forge(self) -> dict:
        """The request it tries to be judged on when no sample's is given."""
        return FORGES[self.aims] if self.aims else FORGE_DEFAULT

    def aimed_at(self, forge: dict | None = None, forge_next: dict | None = None) -> str:
        """The code with the requests it tries to have judged filled in (default: :attr:`forge`)."""
        forge = forge or self.forge
        return (self.code.replace("__FORGE_NEXT__", js_literal(forge_next or forge))
                .replace("__FORGE__", js_literal(forge)))


def corpus(language: str, canary_dir: Path, port: int, marker: str, every: bool = False) -> list[Program]:
    """The hostile programs of ``language`` ("js" or "py"), canaries filled in; those that need a
    layer this machine lacks are left out unless ``every``."""
    from wapii_core.sandbox import landlock

    programs = []
    for path in sorted((CORPUS / language).iterdir()):
        text = path.read_text()
        first = text.splitlines()[0]
        spec, _, aims = first.split("expect:", 1)[1].split("--", 1)[0].partition(" aims: ")
        expect, _, needs = spec.strip().partition(" (")
        needs = needs.rstrip(")")
        if needs == "landlock" and landlock.unavailable() and not every:
            continue
        code = text.replace("__CANARY_DIR__", str(canary_dir)).replace("__CANARY_PORT__", str(port))
        programs.append(Program(path.stem, code.replace("__MARKER__", marker), expect, needs, aims.strip()))
    return programs


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry.name))
    found: set[int] = set()
    pending = [pid]
    while pending:
        for child in children.get(pending.pop(), []):
            if child not in found:
                found.add(child)
                pending.append(child)
    return found


def marked_processes(marker: str) -> list[int]:
    """Processes whose command line carries ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def mounts_under(directory: Path) -> list[str]:
    """Lines of this process's mount table whose mount point is ``directory`` or below it."""
    root = str(directory.resolve())
    lines = Path("/proc/self/mountinfo").read_text().splitlines()
    return [line for line in lines if len(line.split()) > 4
            and (line.split()[4] == root or line.split()[4].startswith(root + "/"))]


@dataclass
class Canaries:
    """The canaries of one run; start with :meth:`start`, judge with :meth:`violations`."""

    directory: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="wapii-canary-")))
    secret: str = field(default_factory=lambda: "canary-" + secrets.token_hex(12))
    marker: str = field(default_factory=lambda: "WAPIIMARK" + secrets.token_hex(6))
    connections: int = 0

    def start(self) -> Canaries:
        self.directory.chmod(0o777)  # writable by anyone: only the sandbox may stop a write
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()
        self.before = descendants(os.getpid())
        return self

    def _accept(self) -> None:
        self._server.settimeout(0.2)
        while not self._stop:
            try:
                connection, _ = self._server.accept()
            except OSError:
                continue
            self.connections += 1
            connection.close()

    def stop(self) -> None:
        self._stop = True
        self._server.close()

    def strings(self) -> list[str]:
        """Strings no stored result may contain: the secret, each line of /etc/passwd and each
        ``NAME=value`` entry of this process's environment as the kernel shows it (``/proc/<pid>/environ``)."""
        passwd = [line for line in Path("/etc/passwd").read_text().splitlines() if len(line) > 12]
        environ = [entry for entry in Path("/proc/self/environ").read_bytes().decode(errors="replace").split("\0")
                   if len(entry) >= 16 and "=" in entry]
        return [self.secret, *passwd, *environ]

    def violations(self, stored: list[str]) -> list[str]:
        """Every canary that was tripped, given the text of every stored result."""
        found = [f"file written: {p}" for p in self.directory.rglob("*")]
        if self.connections:
            found.append(f"{self.connections} connection(s) to the canary server on 127.0.0.1:{self.port}")
        for text in stored:
            found += [f"canary string in a stored result: {s[:40]!r}" for s in self.strings() if s in text]
        leftover = descendants(os.getpid()) - self.before
        found += [f"leftover process {pid}" for pid in sorted(leftover)]
        found += [f"process carrying the marker: {pid}" for pid in marked_processes(self.marker)]
        found += [f"mount over the watched folder: {line}" for line in mounts_under(self.directory)]
        return found
