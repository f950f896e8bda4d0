"""The journal edition's real-world tasks in code context (``wapiibench-context``): where their files
come from upstream and how they are downloaded (:func:`wapii_core.datasets.fetch.fetch_files`).

Upstream publishes no checksums; the sha256 values pinned here are those that the reference copy's
README gives (``../shared/wapiibench-context``). Every other file's sha256 is recorded on its first
download (``sha256-recorded.json`` in the data directory, said so on stderr) and checked on every
later one.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from wapii_core.base.errors import WapiiError
from wapii_core.base.paths import default_data_dir
from wapii_core.datasets.fetch import RemoteFile, fetch_files

if TYPE_CHECKING:
    from wapii_core.base.protocols import Dataset

CONTEXT_DATASET = "wapiibench-context"
CONTEXT_COMMIT = "db1aa724119442706d7ef8ae6379fd0cefe80a40"
CONTEXT_BASE_URL = f"https://raw.githubusercontent.com/Redocly/WAPIIBench/{CONTEXT_COMMIT}"
"""Raw file URLs of the fork that carries the journal edition's pipeline, at the pinned commit."""

_PINNED_SPECS = {
    "frankerfacez_v1": "3cc238931c62f7ad251bff68a5118f6d6973641ed9062e733e76bc9dfb8bd249",
    "instagram": "c5d019bc0439466177efc8ce5faff0f99ae06b93ac651608c69c362c74fe5722",
    "jsonplaceholder": "5271fb9dd6d70d8cf913847b6aed9977e1f64534fbb529a6923d035edfdc2d18",
    "zephyr_cloud_v2": "98904a3980d6a4ebb5df9582331177979ffe71d8448406ff85e1b2f7bca5de67",
}
CONTEXT_APIS = ("etherscan_v1", "frankerfacez_v1", "github_v3", "google_maps_platform", "instagram",
                "jsonplaceholder", "npm_registry", "slack", "telegram_bot_v5", "youtube_data_v3", "zephyr_cloud_v2")
"""The 11 APIs of the 28 tasks (each spec is ``openapi/real_world_specs/<api>.yaml`` upstream)."""

CONTEXT_FILES: tuple[RemoteFile, ...] = (
    RemoteFile("dataset.json", "validation_data/all/validation_data_final.json",
               "e42c02ec08a6ad88e41e437d48aabcc1f7fbff77a1eb32fa16886a69deb6acf3"),
    *(RemoteFile(f"specs/{api}.yaml", f"openapi/real_world_specs/{api}.yaml", _PINNED_SPECS.get(api), needed=False)
      for api in CONTEXT_APIS),
    RemoteFile("prompts/code_generation_with_context_prompt.md", "resources/code_generation_with_context_prompt.md"),
    RemoteFile("LICENSE", "LICENSE", needed=False),
)
"""Every file ``wapii datasets fetch wapiibench-context`` downloads. A spec is not ``needed``: the loader
asks for the spec of each API its dataset.json names, so a partial copy (the reference copy's 12
tasks over 5 APIs) loads too."""


def context_dir(data_dir: Path | None = None) -> Path:
    """Where the context tasks live: ``data_dir``, else the per-user cache."""
    return Path(data_dir).expanduser() if data_dir is not None else default_data_dir(CONTEXT_DATASET)


def fetch_wapiibench_context(data_dir: Path | None = None, base_url: str | None = None, progress: bool = True, *,
                             timeout: float = 60.0, force: bool = False,
                             files: tuple[RemoteFile, ...] = CONTEXT_FILES) -> Path:
    """Download the context tasks into ``data_dir`` (pinned sha256 verified, the others recorded on the
    first download and verified on later ones); return the directory. ``base_url``: a mirror with the
    upstream repository's layout (None: upstream)."""
    return fetch_files(context_dir(data_dir), files, base_url or CONTEXT_BASE_URL, label=CONTEXT_DATASET,
                       progress=progress, timeout=timeout, force=force, record=True)


def load_wapiibench_context(data_dir: Path | None = None) -> "Dataset":
    """Load the context tasks from ``data_dir`` (else the per-user cache): a full download, or a copy
    holding fewer tasks with their specs (the reference copy)."""
    from wapii_core.datasets.loader import load_dataset_dir

    directory = context_dir(data_dir)
    missing = [f.local for f in CONTEXT_FILES if f.needed and not (directory / f.local).is_file()]
    if missing:
        what = "not found" if not directory.is_dir() else f"incomplete (missing {', '.join(missing)})"
        fetch = f"wapii datasets fetch {CONTEXT_DATASET}"
        hint = (f"run `{fetch}` (offline: copy the data from a machine that has it and pass --data-dir DIR)"
                if data_dir is None else f"`{fetch} --data-dir {directory}` downloads it there")
        raise WapiiError(f"{CONTEXT_DATASET} data {what} in {directory}: {hint}")
    return load_dataset_dir(directory, CONTEXT_DATASET)
