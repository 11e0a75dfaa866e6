#!/usr/bin/env bash
# examples/rl/run.sh [smoke]: trains a MaskablePPO agent on sweep/Rigid-v0
# (rlscheduler preset, backfill none) and judges it beside fcfs-none, sjf and
# f1 (examples/rl/README.md):
#   1. sweep run train.yaml; sweep export writes its cells' jobs as SWF
#   2. train.py on those files (MaskablePPO, CPU, seeded)
#   3. sweep run judge.yaml, analyze, report (the heuristics, paired)
#   4. evaluate.py: the agent through the environment on judge.yaml's cells
#   5. the notebook rl.ipynb executed headless on it all
# smoke: a few thousand training steps and judge-smoke.yaml (2 instances of
# 256 jobs at 2 loads), for CI. Results go to $RL_OUT (default results/rl or
# results/rl-smoke). Python packages: examples/rl/requirements.txt in $RL_VENV
# (default .venv-rl; scripts/python-venv reuses it while the pins are
# unchanged; it takes 6 GB: PyPI's torch is CUDA-built), plus ./python.
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=${1:-full}
case $mode in
  full)  timesteps=${RL_TIMESTEPS:-300000} n_steps=1024 judge=examples/rl/judge.yaml out=${RL_OUT:-results/rl} ;;
  smoke) timesteps=${RL_TIMESTEPS:-3072} n_steps=512 judge=examples/rl/judge-smoke.yaml out=${RL_OUT:-results/rl-smoke} ;;
  *) echo "usage: examples/rl/run.sh [full|smoke]" >&2; exit 2 ;;
esac
seed=${RL_SEED:-1}

step() { echo "rl: $1 took $((SECONDS - start)) s (loadavg $(cut -d' ' -f1-3 /proc/loadavg))"; start=$SECONDS; }
start=$SECONDS
python=$(scripts/python-venv "${RL_VENV:-.venv-rl}" examples/rl/requirements.txt)
"$python" -m pip install --quiet --disable-pip-version-check "./python[gym]"
step "the venv"
go build -o bin/sweep ./cmd/sweep
go build -o bin/sweep-gym ./cmd/sweep-gym
export SWEEP_GYM_BIN=$PWD/bin/sweep-gym
step "go build"

rm -rf "$out"
mkdir -p "$out/workloads"
out=$(cd "$out" && pwd)
bin/sweep run examples/rl/train.yaml --out "$out/train" >/dev/null 2>"$out/train.run.log" ||
  { cat "$out/train.run.log" >&2; exit 1; }
workloads=()
while IFS=, read -r cell load; do
  bin/sweep export "$out/train" "$cell" -o "$out/workloads/lublin-$load.swf"
  workloads+=("$out/workloads/lublin-$load.swf")
done < <("$python" -c "
import duckdb, sys
for c, l in duckdb.sql(\"SELECT cell_id, load FROM read_parquet('$out/train/cells/*.parquet') ORDER BY load\").fetchall():
    print('%s,%s' % (c, l))")
step "the training workloads (${#workloads[@]})"

"$python" examples/rl/train.py --workload "${workloads[@]}" --timesteps "$timesteps" --n-steps "$n_steps" \
  --seed "$seed" --out "$out/agent"
step "training"

bin/sweep run "$judge" --out "$out/judge" >/dev/null 2>"$out/judge.run.log" ||
  { cat "$out/judge.run.log" >&2; exit 1; }
bin/sweep analyze "$out/judge" >"$out/judge.analyze.txt"
bin/sweep report "$out/judge" >/dev/null
step "sweep run, analyze and report of $(basename "$judge")"

"$python" examples/rl/evaluate.py --results "$out/judge" --model "$out/agent/model.zip" --sweep bin/sweep \
  --out "$out/agent.csv" 2>"$out/evaluate.log" || { cat "$out/evaluate.log" >&2; exit 1; }
step "evaluating the agent"

RL_OUT=$out NOTEBOOK_OUT=$out "$python" notebooks/execute.py examples/rl/rl.ipynb
step "the notebook"
