#!/bin/bash
# One wapii run split into {{shards}} shards as a Slurm array job: array task I runs shard I/{{shards}}
# (generation on the OpenAI-compatible servers named by -O base_url, judging in this job), then
#   wapii merge {{out_root}}/shard-* --out {{out_root}}/merged
# once every array task has finished (see docs/cluster.md: sbatch --dependency=afterok:<job id>).
#SBATCH --job-name={{job_name}}
#SBATCH --array=0-{{last_index}}
#SBATCH --cpus-per-task={{cpus}}
#SBATCH --output={{job_name}}-%A_%a.log
set -euo pipefail

SHARD="${SLURM_ARRAY_TASK_ID:?submit this script with sbatch (an array job sets SLURM_ARRAY_TASK_ID)}"

# The cache belongs to this node: a copy of the one `wapii setup` prepared on the shared file system
# (the adapters' npm packages, spec indexes, datasets), without the SQLite response cache, which must
# never be shared over a network file system. The run directories go to the shared one.
SHARED_CACHE="${WAPII_SHARED_CACHE:-${HOME}/.cache/wapii}"
export WAPII_CACHE_DIR="${TMPDIR:-/tmp}/wapii-cache-${SLURM_ARRAY_JOB_ID:-job}-${SHARD}"
mkdir -p "${WAPII_CACHE_DIR}" "{{out_root}}"
if [ -d "${SHARED_CACHE}" ]; then
    tar -C "${SHARED_CACHE}" --exclude='./generations.sqlite*' --exclude='./models' -cf - . | tar -C "${WAPII_CACHE_DIR}" -xf -
fi

# A rerun of a failed array task resumes its shard: nothing finished is generated or judged twice.
{{wapii}} run {{run_args}} \
    --shard "${SHARD}/{{shards}}" --out "{{out_root}}/shard-${SHARD}" --quiet
