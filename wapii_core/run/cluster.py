"""Job templates for running one wapii run as shards on a cluster: a Slurm array job and a
Kubernetes Indexed Job, and the Kubernetes Job that merges its shards (``wapii cluster-template``;
``docs/cluster.md`` explains them).

The templates live in ``wapii_core/run/templates/`` with ``{{name}}`` placeholders; :func:`render`
fills every one of them (shell words quoted with :func:`shlex.join`) and refuses a template that
would keep one unfilled. Each rendered job runs, in array task (pod) ``I``::

    wapii run <run arguments> --shard I/N --out <out root>/shard-I --quiet

and the shards are joined afterwards by ``wapii merge <out root>/shard-* --out <out root>/merged``.
"""

from __future__ import annotations

import re
import shlex
from importlib import resources

from pydantic import BaseModel, Field

from wapii_core.base.errors import WapiiError
from wapii_core.run.shards import MAX_SHARDS

KINDS = {"slurm": "slurm.sh", "k8s": "k8s.yaml", "k8s-merge": "k8s-merge.yaml"}
"""Template kinds and their files."""

DEFAULT_RUN_ARGS = ["--dataset", "wapiibench", "--backend", "openai", "--model", "Qwen/Qwen2.5-Coder-7B",
                    "-O", "base_url=http://vllm:8000/v1", "--draws", "5"]
"""The example run: five draws of every WAPIIBench task from a vLLM server's OpenAI-compatible API."""

DEFAULT_OUT_ROOT = {"slurm": "runs/sharded", "k8s": "/runs/sharded", "k8s-merge": "/runs/sharded"}
"""Where the shard directories go unless told (Kubernetes mounts the shared volume at an absolute path)."""

_OWN = ("--shard", "--out", "-o", "--force")
"""Options the template sets itself (or that would discard a shard's work on a retry)."""

_PLAIN = re.compile(r"[A-Za-z0-9_./:@-]+")
_PLACEHOLDER = re.compile(r"\{\{(\w+)\}\}")


class ClusterJob(BaseModel):
    """What a rendered job runs."""

    shards: int = Field(ge=1, le=MAX_SHARDS)
    out_root: str | None = None  # default: DEFAULT_OUT_ROOT[kind]
    run_args: list[str] = Field(default_factory=lambda: list(DEFAULT_RUN_ARGS))
    job_name: str = "wapii"
    wapii: str = "wapii"
    cpus: int = Field(default=4, ge=1)
    image: str = "wapii:latest"
    claim: str = "wapii-runs"
    retries: int = Field(default=3, ge=0)
    cache: str = "/opt/wapii-cache"


def check_run_args(args: list[str]) -> None:
    """Refuse run arguments that the template sets itself."""
    for arg in args:
        name = arg.split("=", 1)[0]
        if name in _OWN:
            raise WapiiError(f"run argument {arg!r}: the template sets {', '.join(_OWN[:2])} itself "
                             "(and a shard's retry must resume, not --force)")


def render(kind: str, job: ClusterJob) -> str:
    """The ``kind`` template (``slurm`` or ``k8s``) filled in for ``job``."""
    if kind not in KINDS:
        raise WapiiError(f"unknown template {kind!r} (known: {', '.join(KINDS)})")
    if not re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", job.job_name):
        raise WapiiError(f"--job-name {job.job_name!r}: lower-case letters, digits and '-' (a Kubernetes name)")
    check_run_args(job.run_args)
    out_root = job.out_root or DEFAULT_OUT_ROOT[kind]
    if kind.startswith("k8s") and not out_root.startswith("/"):
        raise WapiiError(f"--out-root {out_root!r}: a Kubernetes job mounts the shared volume there: give an "
                         "absolute path")
    for option, value in (("--out-root", out_root), ("--wapii", job.wapii), ("--image", job.image),
                          ("--claim", job.claim), ("--cache", job.cache)):
        if not _PLAIN.fullmatch(value):
            raise WapiiError(f"{option} {value!r}: only letters, digits and . _ / : @ - (it is written into the "
                             "job unquoted)")
    text = resources.files("wapii_core.run").joinpath("templates", KINDS[kind]).read_text(encoding="utf-8")
    values = {
        "shards": str(job.shards), "last_index": str(job.shards - 1), "out_root": out_root,
        "run_args": shlex.join(job.run_args), "job_name": job.job_name, "wapii": job.wapii,
        "cpus": str(job.cpus), "image": job.image, "claim": job.claim, "retries": str(job.retries),
        "cache": job.cache,
    }
    unknown = sorted(set(_PLACEHOLDER.findall(text)) - set(values))
    if unknown:
        raise WapiiError(f"template {KINDS[kind]}: unknown placeholder {unknown[0]!r}")
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], text)
