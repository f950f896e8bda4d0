"""``wapii cluster-template``: a Slurm array job or a Kubernetes Indexed Job that runs one run as shards."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

CONTEXT_SETTINGS = {"allow_extra_args": True, "ignore_unknown_options": True}
"""Everything after ``--`` is the sharded run's own arguments."""


def cluster_template_command(
    ctx: typer.Context,
    kind: str = typer.Argument(..., help="slurm (an array job script), k8s (an Indexed Job manifest) or "
                                             "k8s-merge (the Job that merges its shards)."),
    shards: int = typer.Option(..., "--shards", "-N", min=1, help="Number of shards (array tasks, pods)."),
    out_root: Optional[str] = typer.Option(None, "--out-root", help="Shared directory of the shard run "
                                           "directories, <out-root>/shard-<I> (default: runs/sharded; k8s: "
                                           "/runs/sharded, the shared volume's mount path)."),
    job_name: str = typer.Option("wapii", "--job-name", help="The job's name."),
    cpus: int = typer.Option(4, "--cpus", min=1, help="CPUs per shard (judging runs in the job)."),
    image: str = typer.Option("wapii:latest", "--image", help="k8s: the container image with wapii installed."),
    claim: str = typer.Option("wapii-runs", "--claim", help="k8s: the ReadWriteMany PersistentVolumeClaim "
                              "mounted at --out-root."),
    wapii: str = typer.Option("wapii", "--wapii", help="The wapii command on the nodes."),
    cache: str = typer.Option("/opt/wapii-cache", "--cache", help="k8s: the image's cache directory "
                              "(WAPII_CACHE_DIR when `wapii setup` ran in the image build)."),
    output: Optional[Path] = typer.Option(None, "--output", help="Write the job here (default: standard "
                                          "output)."),
) -> None:
    """Print a cluster job that runs one `wapii run` as N shards: everything after `--` is that run's
    arguments (default: WAPIIBench, 5 draws, the openai backend on a vLLM server).

    Example: wapii cluster-template slurm -N 8 -- --backend openai --model M -O base_url=http://gpu01:8000/v1"""
    from wapii_core.run.cluster import ClusterJob, render
    from wapii_core.store.rundir import write_atomic

    extra = {"run_args": list(ctx.args)} if ctx.args else {}
    text = render(kind, ClusterJob(shards=shards, out_root=out_root, job_name=job_name, cpus=cpus, image=image,
                                   claim=claim, wapii=wapii, cache=cache, **extra))
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_atomic(output, text)
        if kind == "slurm":
            output.chmod(0o755)
