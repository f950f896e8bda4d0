"""Where the read-only reference data is, and how to run the real CLI (imported by tests)."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("WAPII_SHARED", REPO.parent / "shared")).resolve()
WAPIIBENCH = SHARED / "wapiibench"
CONFORMANCE = SHARED / "conformance"


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = 600) -> subprocess.CompletedProcess:
    """Run ``python -m wapii_core`` as a user would run ``wapii``."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "wapii_core", *args], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=timeout)


def sha256_of(path: Path) -> str:
    """The sha256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()
