#!/usr/bin/env bash
# sabandit.tune as a Slurm job array: N workers, on any nodes, share the studies of one
# PostgreSQL database (docs/python.md, "Tuning at scale"). Submit with
#   sbatch --array=0-15 python/tune-slurm.sh
# after setting SABANDIT_TUNE_STORAGE (a PostgreSQL URL every node can reach), then write the
# parameter file with
#   python3 -m sabandit.tune report --protocol paper --storage "$SABANDIT_TUNE_STORAGE" --output tuned_params.txt
#SBATCH --job-name=sabandit-tune
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
#SBATCH --output=sabandit-tune-%A_%a.log
set -euo pipefail
: "${SABANDIT_TUNE_STORAGE:?set it to postgresql://USER:PASSWORD@HOST/DATABASE}"
# Each array task is one worker; its index seeds its TPE sampler, so workers propose different
# configurations. A task that dies loses only its running trial, which another worker reruns.
exec python3 -m sabandit.tune run --protocol paper --quiet \
  --storage "$SABANDIT_TUNE_STORAGE" \
  --worker "${SLURM_ARRAY_TASK_ID:-0}" \
  --threads "${SLURM_CPUS_PER_TASK:-1}" \
  --trials 1000 --runs 50 --horizon 10000
