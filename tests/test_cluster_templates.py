"""The Slurm and Kubernetes templates of docs/cluster.md: rendered, parsed, and their shard commands
run for every index against the oracle, then merged."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from support import REPO, run_cli
from wapii_core.base.errors import WapiiError
from wapii_core.base.paths import cache_dir
from wapii_core.run.cluster import ClusterJob, render

WAPII = str(Path(sys.executable).parent / "wapii")
RUN = ["--dataset", "demo", "--backend", "oracle", "--limit", "6", "--draws", "2"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX")}
    return {**env, **extra}


def _pod(document: dict) -> tuple[dict, str]:
    """The container of a Job manifest and the script it runs (``bash -c SCRIPT``)."""
    container, = document["spec"]["template"]["spec"]["containers"]
    assert container["command"] == ["bash", "-c"]
    script, = container["args"]
    return container, script


def test_the_docs_show_the_templates_as_rendered():
    doc = (REPO / "docs" / "cluster.md").read_text()
    assert f"```bash\n{render('slurm', ClusterJob(shards=4))}```" in doc
    assert f"```yaml\n{render('k8s', ClusterJob(shards=4))}```" in doc


def test_the_slurm_template_is_an_array_job_over_the_shards(tmp_path):
    text = render("slurm", ClusterJob(shards=5, out_root=str(tmp_path / "runs"), run_args=RUN, job_name="q7b"))
    directives = dict(line[len("#SBATCH "):].split("=", 1) for line in text.splitlines() if line.startswith("#SBATCH"))
    assert directives["--array"] == "0-4" and directives["--job-name"] == "q7b"
    lines = [line for line in text.replace("\\\n", " ").splitlines() if line.strip() and not line.startswith("#")]
    command = shlex.split(lines[-1])  # the job's last command: the shard's run
    assert command == ["wapii", "run", *RUN, "--shard", "${SHARD}/5", "--out", f"{tmp_path}/runs/shard-${{SHARD}}",
                       "--quiet"]
    assert 'SHARD="${SLURM_ARRAY_TASK_ID:?' in text
    default = render("slurm", ClusterJob(shards=2))  # generation on a vLLM server through the openai backend
    assert "--backend openai" in default and "-O base_url=http://vllm:8000/v1" in default


def test_the_k8s_templates_are_an_indexed_job_and_its_merge(tmp_path):
    job = ClusterJob(shards=3, out_root="/runs/q7b", run_args=RUN, image="registry.example/wapii:1")
    document = yaml.safe_load(render("k8s", job))
    assert document["kind"] == "Job" and document["spec"]["completionMode"] == "Indexed"
    assert document["spec"]["completions"] == document["spec"]["parallelism"] == 3
    container, script = _pod(document)
    assert container["image"] == "registry.example/wapii:1"
    assert 'SHARD="${JOB_COMPLETION_INDEX:?' in script
    assert ('wapii run --dataset demo --backend oracle --limit 6 --draws 2 --shard "${SHARD}/3" '
            '--out "/runs/q7b/shard-${SHARD}" --quiet') in script
    cache = {e["name"]: e["value"] for e in container["env"]}["WAPII_CACHE_DIR"]
    assert not cache.startswith("/runs/q7b")  # the response cache is the pod's own, never on the shared volume
    assert [m["mountPath"] for m in container["volumeMounts"]] == ["/runs/q7b"]
    merge = yaml.safe_load(render("k8s-merge", job))
    assert merge["kind"] == "Job" and "completionMode" not in merge["spec"]
    _, merge_script = _pod(merge)
    assert 'wapii merge /runs/q7b/shard-* --out "/runs/q7b/merged"' in merge_script


@pytest.mark.parametrize("kind, job, needle", [
    ("pbs", ClusterJob(shards=2), "unknown template 'pbs'"),
    ("slurm", ClusterJob(shards=2, run_args=["--out", "x"]), "the template sets --shard, --out itself"),
    ("slurm", ClusterJob(shards=2, run_args=["--shard=1/2"]), "the template sets"),
    ("slurm", ClusterJob(shards=2, run_args=["--force"]), "must resume"),
    ("k8s", ClusterJob(shards=2, out_root="runs"), "give an absolute path"),
    ("slurm", ClusterJob(shards=2, out_root="my runs"), "--out-root 'my runs'"),
    ("k8s", ClusterJob(shards=2, job_name="Q7B"), "--job-name"),
])
def test_bad_template_requests_are_refused(kind, job, needle):
    with pytest.raises(WapiiError, match=re.escape(needle)):
        render(kind, job)


def test_the_command_refuses_in_one_line():
    done = run_cli("cluster-template", "k8s", "--shards", "2", "--", "--out", "x")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--out" in done.stderr


@pytest.mark.slow  # eight wapii processes
def test_rendered_jobs_run_every_shard_and_merge(tmp_path):
    """The Slurm script run as array tasks 0-2 would run it; the Kubernetes pods' scripts with their
    completion indexes; then the merges."""
    out = tmp_path / "slurm"
    script = tmp_path / "shards.sh"
    done = run_cli("cluster-template", "slurm", "--shards", "3", "--out-root", str(out), "--wapii", WAPII,
                   "--output", str(script), "--", *RUN)
    assert done.returncode == 0, done.stderr
    assert os.access(script, os.X_OK)
    missing = subprocess.run(["bash", str(script)], env=_env(), capture_output=True, text=True)
    assert missing.returncode != 0 and "SLURM_ARRAY_TASK_ID" in missing.stderr
    for index in range(3):
        task = subprocess.run(["bash", str(script)], capture_output=True, text=True,
                              env=_env(SLURM_ARRAY_TASK_ID=str(index), TMPDIR=str(tmp_path / f"node{index}"),
                                       WAPII_SHARED_CACHE=str(cache_dir())))
        assert task.returncode == 0, task.stderr
        info = json.loads((out / f"shard-{index}" / "run.json").read_text())
        assert info["shard"] == {"index": index, "count": 3} and info["draws"] == 2
        assert not (tmp_path / f"node{index}" / f"wapii-cache-job-{index}" / "generations.sqlite").exists()
    merged = run_cli("merge", *(str(out / f"shard-{i}") for i in range(3)), "--out", str(out / "merged"), "--quiet")
    assert merged.returncode == 0, merged.stderr
    summary = json.loads((out / "merged" / "summary.json").read_text())
    assert summary["complete"] and summary["samples"] == 12

    root = tmp_path / "k8s"
    job = ClusterJob(shards=3, out_root=str(root), run_args=RUN, wapii=WAPII)
    _, pod_script = _pod(yaml.safe_load(render("k8s", job)))
    for index in range(3):
        pod = subprocess.run(["bash", "-c", pod_script], env=_env(JOB_COMPLETION_INDEX=str(index)),
                             capture_output=True, text=True)
        assert pod.returncode == 0, pod.stderr
    _, merge_script = _pod(yaml.safe_load(render("k8s-merge", job)))
    merge = subprocess.run(["bash", "-c", merge_script], env=_env(), capture_output=True, text=True)
    assert merge.returncode == 0, merge.stderr
    assert (root / "merged" / "summary.json").read_bytes() == (out / "merged" / "summary.json").read_bytes()
