"""What a backend can declare it is (its ``kind``; a leaf: read when plugins register, before pydantic)."""

from __future__ import annotations

GENERATES = "generates"
BACKEND_KINDS = (GENERATES, "replays", "renders")
"""What a backend is (its optional ``kind``): ``generates`` programs (a model: the default),
``replays`` stored programs (it reads ``--generations``; a constrained setting does not concern it),
or ``renders`` the answer key (each task's expected request through the adapter: a self-test whose
every sample must be correct; the backend a run uses unless ``--backend`` names another)."""
