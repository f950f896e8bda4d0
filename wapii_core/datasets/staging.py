"""Writing a dataset directory whole or not at all (``datasets generate``, ``datasets scaffold``).

The files are written into a fresh directory beside the target; it replaces the target in one
rename once what was written loads as a dataset, and is removed otherwise, so an interrupted or
failed command leaves nothing half-written.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any, Iterator

from wapii_core.base.atomic import umask
from wapii_core.base.errors import WapiiError
from wapii_core.base.staged_dir import staged_directory


def refuse_existing(out: Path) -> None:
    """A one-line error when ``out`` exists and is not an empty directory."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise WapiiError(f"{out} already exists and is not empty; choose a new --out")


@contextlib.contextmanager
def staged_dataset(out: Path, api: str) -> Iterator[Path]:
    """A fresh directory beside ``out`` to write the dataset of ``api`` into; when the block ends
    without an exception the directory must load as a dataset and then becomes ``out``."""
    from wapii_core.datasets.loader import load_dataset_dir

    with staged_directory(out, mode=0o777 & ~umask()) as staging:  # mkdtemp's 0700 would stick to it
        yield staging
        load_dataset_dir(staging, api)  # what was written must load as a dataset
        if out.exists():
            out.rmdir()  # an empty directory (refuse_existing): anything else stays, and this fails


def write_json(path: Path, data: Any) -> None:
    """``data`` as indented UTF-8 JSON."""
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
