#!/usr/bin/env bash
# examples/rl/run.sh [full|smoke]: trains a MaskablePPO agent on
# sweep/Rigid-v0 (Lublin-Feitelson instances, no backfilling) and judges it
# beside fcfs-none, sjf and f1 in a manifest (examples/rl/README.md):
#   1. train.py (MaskablePPO, CPU, seeded)
#   2. sweep run judge.yaml (the agent a policy of it, through agent.py),
#      analyze, report
#   3. the notebook rl.ipynb executed headless on both
# smoke: 3,072 training steps and judge-smoke.yaml (2 instances of 256 jobs
# at 2 loads), for CI. Results go to results/rl or results/rl-smoke (the
# manifests name the model there). Python packages: examples/rl/
# requirements.txt in .venv-rl (scripts/python-venv reuses it while the pins
# are unchanged; it takes 6 GB: PyPI's torch is CUDA-built), plus
# ./python[gym]. RL_TIMESTEPS and RL_SEED change the training.
set -euo pipefail
cd "$(dirname "$0")/../.."
case ${1:-full} in
  full)  timesteps=${RL_TIMESTEPS:-300000} n_steps=1024 judge=examples/rl/judge.yaml out=results/rl ;;
  smoke) timesteps=${RL_TIMESTEPS:-3072} n_steps=512 judge=examples/rl/judge-smoke.yaml out=results/rl-smoke ;;
  *) echo "usage: examples/rl/run.sh [full|smoke]" >&2; exit 2 ;;
esac

step() { echo "rl: $1 took $((SECONDS - start)) s (loadavg $(cut -d' ' -f1-3 /proc/loadavg))"; start=$SECONDS; }
start=$SECONDS
python=$(scripts/python-venv .venv-rl examples/rl/requirements.txt)
"$python" -m pip install --quiet --disable-pip-version-check "./python[gym]"
step "the venv"
go build -o bin/sweep ./cmd/sweep
go build -o bin/sweep-gym ./cmd/sweep-gym
export SWEEP_GYM_BIN=$PWD/bin/sweep-gym
step "go build"

rm -rf "$out"
mkdir -p "$out"
"$python" examples/rl/train.py --timesteps "$timesteps" --n-steps "$n_steps" --seed "${RL_SEED:-1}" --out "$out/agent"
step "training"

bin/sweep run "$judge" --out "$out/judge" >/dev/null 2>"$out/judge.run.log" ||
  { cat "$out/judge.run.log" >&2; exit 1; }
bin/sweep analyze "$out/judge" >"$out/judge.analyze.txt"
bin/sweep report "$out/judge" >/dev/null
step "sweep run, analyze and report of $(basename "$judge")"

RL_OUT=$PWD/$out NOTEBOOK_OUT=$out "$python" notebooks/execute.py examples/rl/rl.ipynb \
  2> >(grep -v 'running over TCP without encryption' >&2)
step "the notebook"
