"""The WAPIIBench files: where they come from upstream, where they live here, how to download them.

The download is all-or-nothing: every file goes into a staging directory next to the target, every
pinned sha256 is checked, and only then does the staging directory replace the target. A 404, a
dropped connection, a checksum mismatch or an interrupt leaves the target exactly as it was.
"""

from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from wapii_core.base.errors import WapiiError
from wapii_core.base.paths import default_data_dir
from wapii_core.base.staged_dir import staged_directory
from wapii_core.base.text import one_line

if TYPE_CHECKING:
    from rich.progress import Progress

WAPIIBENCH_COMMIT = "b5964b80d800af62ecdd03e94e390eba1fa923e5"
WAPIIBENCH_BASE_URL = f"https://raw.githubusercontent.com/stg-tud/WAPIIBench/{WAPIIBENCH_COMMIT}"
"""Raw file URLs of the upstream repository at the pinned commit; a file's URL is ``<base>/<upstream path>``."""


@dataclass(frozen=True)
class RemoteFile:
    """One file of the WAPIIBench data directory and its upstream origin."""

    local: str  # path inside the data directory
    upstream: str  # path inside the upstream repository
    sha256: str | None = None  # pinned checksum; None: not checked
    needed: bool = True  # the loader needs it, so its presence is checked on every load


def _grammar_cases(kind: str, numbers: list[int]) -> list[RemoteFile]:
    return [
        RemoteFile(
            f"grammar-cases/method_as_function/{kind}/{n:04d}.js",
            f"data/test/method_as_function/{kind}/{n:04d}.js",
            needed=False,
        )
        for n in numbers
    ]


# Upstream directories cannot be listed through raw URLs, so the grammar cases' names are listed
# here (names only): the `positive` and `negative` folders of data/test/method_as_function/.
_POSITIVE_CASES = [*range(0, 10), *range(1000, 1010), *range(2000, 2005), *range(3000, 3004), 4000,
                   *range(5000, 5003), *range(6000, 6004), 7000, 7001, 7500, 7501, 8000, 9000,
                   *range(9500, 9503)]
_NEGATIVE_CASES = [*range(0, 10), *range(1000, 1010), *range(2000, 2006), *range(3000, 3006),
                   *range(4000, 4004), *range(5000, 5003), 6000, 6001, *range(7000, 7003), 7500, 7501,
                   8000, *range(9500, 9505)]

WAPIIBENCH_FILES: tuple[RemoteFile, ...] = (
    RemoteFile("dataset.json", "data/synthetic/all/test_data_final.json",
               "09c778d61f2bf791b1f9bb1572e2a35c5784abcac7fc4382b1d6e30b0e6ef507"),
    RemoteFile("specs/asana.yaml", "openapi/real_world_specs/asana.yaml",
               "e2c89bf47fab78478a28e71f58bd4b6c24648779f062a33c624dc80874de4e5c"),
    RemoteFile("specs/google_calendar_v3.yaml", "openapi/real_world_specs/google_calendar_v3.yaml",
               "a9cf387984922208a1e3f8631c802234cfbdec2e64d9b540bc721cd498ee02fd"),
    RemoteFile("specs/google_sheet_v4.yaml", "openapi/real_world_specs/google_sheet_v4.yaml",
               "f546383df3d67a9669a46b2009d5a26a7713a48b91da3f5aaef0a56be74e1ac4"),
    RemoteFile("specs/slack.yaml", "openapi/real_world_specs/slack.yaml",
               "6aa49f2b5869e2b0da57973e814460f0642eda09039671c693ea9c613929448f"),
    RemoteFile("prompts/code_generation_prompt.md", "resources/code_generation_prompt.md",
               "46ab71ce42c3abe47a187323f7aff6c78190d89c27cdede118ace1fb10b0e2a1"),
    RemoteFile("prompts/dataset_generation_prompt.md", "resources/dataset_generation_prompt.md"),
    RemoteFile("prompts/slack_instructions.md", "resources/slack_instructions.md"),
    RemoteFile("prompts/template.json", "resources/template.json"),
    RemoteFile("LICENSE", "LICENSE", needed=False),
    RemoteFile("grammar-cases/petstore-expanded-modified.yaml", "openapi/test/petstore-expanded-modified.yaml",
               needed=False),
    *_grammar_cases("positive", _POSITIVE_CASES),
    *_grammar_cases("negative", _NEGATIVE_CASES),
)
"""Every file ``wapii datasets fetch wapiibench`` downloads (the table of the benchmark's README)."""

_CHUNK = 64 * 1024


def wapiibench_dir(data_dir: Path | None = None) -> Path:
    """Where the WAPIIBench data lives: ``data_dir``, else ``$WAPII_DATA_DIR``, else the per-user cache."""
    if data_dir is not None:
        return Path(data_dir).expanduser()
    explicit = os.environ.get("WAPII_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser()
    return default_data_dir("wapiibench")


def fetch_wapiibench(
    data_dir: Path | None = None,
    base_url: str | None = WAPIIBENCH_BASE_URL,
    progress: bool = True,
    *,
    timeout: float = 60.0,
    force: bool = False,
) -> Path:
    """Download every WAPIIBench file into ``data_dir``, verify the pinned sha256 values, return the directory.

    ``base_url`` (None: upstream) is the prefix that each file's upstream path is appended to, so a
    mirror with the repository's layout works too. On any failure the target directory is left
    as it was (absent, or the previous copy) and a one-line :class:`WapiiError` names the file.
    """
    return fetch_files(wapiibench_dir(data_dir), WAPIIBENCH_FILES, (base_url or WAPIIBENCH_BASE_URL),
                       label="wapiibench", progress=progress, timeout=timeout, force=force)


RECORDED_FILE = "sha256-recorded.json"
"""Where a download that records digests keeps the sha256 of each file upstream publishes none for:
written on the first download, and every later download of the same directory is checked against it."""


def fetch_files(
    target: Path,
    files: tuple[RemoteFile, ...],
    base_url: str,
    *,
    label: str,
    progress: bool = True,
    timeout: float = 60.0,
    force: bool = False,
    record: bool = False,
) -> Path:
    """Download ``files`` from ``base_url`` into ``target`` whole or not at all; return ``target``.

    Every pinned sha256 is checked. With ``record``, the sha256 of each unpinned file is checked
    against :data:`RECORDED_FILE` of the previous download, or recorded there on the first one (and
    said so on stderr). On any failure ``target`` is left as it was and a one-line
    :class:`WapiiError` names the file.
    """
    import sys

    base = base_url.rstrip("/")
    if target.exists() and not target.is_dir():
        raise WapiiError(f"{target}: exists and is not a directory")
    previous = read_recorded(target) if record else {}
    if not force and _is_complete(target, files, previous if record else None):  # works offline
        checked = "every pinned sha256 and every recorded one" if record else "every pinned sha256"
        print(f"{target}: already complete, {checked} verified; nothing downloaded (delete the directory "
              "to download it again)", file=sys.stderr)
        return target
    digests: dict[str, str] = {}
    try:
        with staged_directory(target) as staging, _progress(progress, len(files), label) as bar:
            for remote in files:
                digests[remote.local] = _fetch_one(remote, f"{base}/{remote.upstream}", staging, bar, timeout,
                                                   previous.get(remote.local), target)
            if record:
                _write_recorded(staging, {f.local: digests[f.local] for f in files if f.sha256 is None})
    except WapiiError as exc:
        state = "left unchanged" if target.exists() else "not created"
        import urllib.error

        cause = exc.__cause__
        offline = isinstance(cause, urllib.error.URLError) and not isinstance(cause, urllib.error.HTTPError)
        hint = ("; offline? copy the data from a machine that has it and pass --data-dir DIR (or set "
                "$WAPII_DATA_DIR) to wapii run" if offline else "")
        raise WapiiError(f"{exc}; {target} {state}{hint}") from cause
    except OSError as exc:  # writing the files, or putting them in the directory's place
        state = "left unchanged" if target.exists() else "not created"
        raise WapiiError(f"{target}: could not write the downloaded files: {one_line(exc)}; {target} {state}") from exc
    first = [f.local for f in files if record and f.sha256 is None and f.local not in previous]
    if first:
        print(f"{label}: upstream publishes no sha256 for {len(first)} file(s) ({', '.join(first)}); recorded the "
              f"sha256 of this first download in {target / RECORDED_FILE}, and later downloads are checked "
              "against it", file=sys.stderr)
    return target


def is_complete(target: Path) -> bool:
    """Whether ``target`` holds every WAPIIBench file, each with its pinned sha256 where one is pinned."""
    return _is_complete(target, WAPIIBENCH_FILES, None)


def _is_complete(target: Path, files: tuple[RemoteFile, ...], recorded: dict[str, str] | None) -> bool:
    """Whether ``target`` holds every one of ``files`` with its pinned sha256 (and, when ``recorded`` is
    given, every unpinned file with its recorded sha256)."""
    for remote in files:
        path = target / remote.local
        if not path.is_file():
            return False
        expected = remote.sha256 if remote.sha256 is not None else (recorded or {}).get(remote.local)
        if expected is None and recorded is not None:
            return False  # nothing recorded for it: download and record
        if expected is not None and hashlib.sha256(path.read_bytes()).hexdigest() != expected:
            return False
    return True


def read_recorded(target: Path) -> dict[str, str]:
    """The sha256 values a previous download recorded in ``target`` (none: an empty mapping)."""
    import json

    path = target / RECORDED_FILE
    if not path.is_file():
        return {}
    try:
        files = json.loads(path.read_text(encoding="utf-8")).get("files")
        if isinstance(files, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
            return files
    except (ValueError, AttributeError, UnicodeDecodeError):
        pass
    raise WapiiError(f"{path}: not the record of a previous download (a JSON object whose 'files' maps each file to "
                     "its sha256); delete it to record the digests anew")


def _write_recorded(staging: Path, digests: dict[str, str]) -> None:
    import json

    record = {"note": "sha256 of the files upstream publishes none for, recorded on their first download; "
                      "every later download is checked against them", "files": dict(sorted(digests.items()))}
    (staging / RECORDED_FILE).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")


def _fetch_one(remote: RemoteFile, url: str, staging: Path, bar: _Bar, timeout: float,
               recorded: str | None = None, target: Path | None = None) -> str:
    """Download one file into the staging directory, check its sha256 (pinned, else ``recorded``), return it."""
    dest = staging / remote.local
    dest.parent.mkdir(parents=True, exist_ok=True)
    digest = _download(url, dest, remote.local, bar, timeout)
    if remote.sha256 is not None and digest != remote.sha256:
        raise WapiiError(f"{remote.local}: sha256 mismatch (expected {remote.sha256}, got {digest}) from {url}")
    if remote.sha256 is None and recorded is not None and digest != recorded:
        raise WapiiError(f"{remote.local}: sha256 mismatch (expected {recorded}, recorded on its first download in "
                         f"{(target or staging) / RECORDED_FILE}; got {digest}) from {url}")
    return digest


def _download(url: str, dest: Path, name: str, bar: _Bar, timeout: float) -> str:
    """Stream ``url`` into ``dest``; return the sha256 of what arrived, or fail naming ``name``."""
    import http.client  # deferred: loading a dataset (every run) never downloads
    import urllib.error
    import urllib.request

    digest = hashlib.sha256()
    received = 0
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(dest, "wb") as out:
            length = response.headers.get("Content-Length")
            expected = int(length) if length and length.isdigit() else None
            bar.start(name)
            while chunk := response.read(_CHUNK):
                out.write(chunk)
                digest.update(chunk)
                received += len(chunk)
                bar.advance(len(chunk))
    except urllib.error.HTTPError as exc:
        exc.close()
        raise WapiiError(f"{name}: download failed: HTTP {exc.code} {exc.reason} from {url}") from exc
    except urllib.error.URLError as exc:
        raise WapiiError(f"{name}: download failed: {one_line(exc.reason)} from {url}") from exc
    except (http.client.HTTPException, OSError) as exc:  # dropped connection, reset, timeout, disk full
        raise WapiiError(f"{name}: download interrupted after {received} bytes: "
                         f"{type(exc).__name__}: {one_line(exc)} from {url}") from exc
    if expected is not None and received != expected:
        raise WapiiError(f"{name}: download interrupted (received {received} of {expected} bytes) from {url}")
    bar.finish()
    return digest.hexdigest()


class _Bar:
    """Download progress: silent here, a rich progress bar in :class:`_RichBar`."""

    def start(self, name: str) -> None: ...

    def advance(self, n: int) -> None: ...

    def finish(self) -> None: ...


class _RichBar(_Bar):
    """One line on stderr: a bar over the files, the bytes of the current file so far, its name."""

    def __init__(self, progress: "Progress", total_files: int, label: str) -> None:
        self._progress = progress
        self._task = progress.add_task(label, total=total_files, file="", size="")
        self._received = 0

    def start(self, name: str) -> None:
        self._received = 0
        self._progress.update(self._task, file=name, size="")

    def advance(self, n: int) -> None:
        from rich.filesize import decimal

        self._received += n
        self._progress.update(self._task, size=decimal(self._received))

    def finish(self) -> None:
        self._progress.advance(self._task, 1)


@contextmanager
def _progress(enabled: bool, total_files: int, label: str) -> Iterator[_Bar]:
    if not enabled:
        yield _Bar()
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
    from rich.table import Column

    columns = (TextColumn("{task.description}"), BarColumn(bar_width=20), MofNCompleteColumn(),
               TextColumn("{task.fields[size]:>10}"),
               TextColumn("{task.fields[file]}", table_column=Column(no_wrap=True, overflow="ellipsis", max_width=28)))
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        yield _RichBar(progress, total_files, label)
