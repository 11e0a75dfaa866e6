"""evaluate.py runs a trained agent through sweep/Rigid-v0 on the jobs of a sweep run's cells.

    python evaluate.py --results RESULTS --model runs/agent/model.zip --sweep bin/sweep --out agent.csv

For every cell of --reference (default fcfs-none) in RESULTS (a `sweep run` of
judge.yaml), `sweep export` writes the cell's jobs as SWF (its submit times at
the cell's load, run times, sizes, requested times; the schedule's own waits
are not read back) and the agent schedules the whole of them as one episode of
the environment (options={"first": 0}, jobs = the cell's jobs), greedily
(deterministic=True), invalid actions masked. The episode's return under the
rlscheduler preset is minus the mean bounded slowdown max(1, (wait + run) /
max(run, 10 s)), sweep's bsld_mean.

The same episode is also played by "the visible job with the shortest
requested time" read off the observation, which is sjf's choice (RLScheduler's
observation shows the 128 first jobs of the shortest-request order among
others when more than 128 wait, so its shortest is the queue's), and whose mean
bounded slowdown must be the sjf cell's bsld_mean (sjf with backfill none,
head committed: docs/policies.md, "Against RLScheduler"); the CSV carries both
so that a reader sees the environment and `sweep run` agree before comparing
the agent with the heuristics. (Slot 0 is not FCFS here: beyond 128 waiting
jobs it holds the shortest one.)

Writes one row per cell: workload, instance, load, jobs, agent_bsld_mean,
env_sjf_bsld_mean, sjf_bsld_mean, reference_bsld_mean.

This is the path until item 6's agent-as-policy lands in sweep; with it, the
agent is a policy of judge.yaml and its rows are in the results' Parquet.
"""

import argparse
import csv
import os
import subprocess
import sys
import tempfile

import duckdb
import gymnasium
from sb3_contrib import MaskablePPO

import kernel  # noqa: F401 (the agent's policy class, for MaskablePPO.load)
from obspolicy import shortest_request

import sweep_policy  # noqa: F401 (registers sweep/Rigid-v0)

ENV_ID = "sweep/Rigid-v0"


def episode_bsld(env, choose):
    """Plays one pinned episode with choose(obs, mask) and returns its mean bounded slowdown."""
    obs, info = env.reset(seed=0, options={"first": 0})
    total = 0.0
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(choose(obs, info["action_mask"]))
        total += reward
        done = terminated or truncated
    return -total


def cells_of(results, reference):
    """The reference's cells, each with the sjf cell of its instance and load."""
    q = ("SELECT r.cell_id, r.workload, r.instance, r.load, r.month_jobs AS jobs, s.bsld_mean, r.bsld_mean "
         "FROM read_parquet($p) r JOIN read_parquet($p) s USING (workload, instance, load, platform) "
         "WHERE r.policy = $ref AND s.policy = 'sjf' AND r.status = 'ok' AND s.status = 'ok' "
         "ORDER BY r.workload, r.load, r.instance")
    return duckdb.connect().execute(q, {"p": os.path.join(results, "cells", "*.parquet"), "ref": reference}).fetchall()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--results", required=True, help="results directory of `sweep run judge.yaml`")
    p.add_argument("--model", required=True, help="model.zip written by train.py")
    p.add_argument("--sweep", default="sweep", help="the sweep binary (for sweep export)")
    p.add_argument("--reference", default="fcfs-none", help="the policy whose cells give the jobs")
    p.add_argument("--backfill", choices=["none", "easy"], default="none")
    p.add_argument("--preset", default="rlscheduler")
    p.add_argument("--out", required=True, help="CSV to write")
    args = p.parse_args(argv)

    cells = cells_of(args.results, args.reference)
    if not cells:
        sys.exit("%s: no %s cells with status ok" % (args.results, args.reference))
    model = MaskablePPO.load(args.model, device="cpu")

    def agent(obs, mask):
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    with tempfile.TemporaryDirectory() as tmp, open(args.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["workload", "instance", "load", "jobs", "agent_bsld_mean", "env_sjf_bsld_mean",
                    "sjf_bsld_mean", "reference_bsld_mean"])
        for cell_id, workload, instance, load, jobs, sjf_bsld, ref_bsld in cells:
            swf = os.path.join(tmp, cell_id + ".swf")
            subprocess.run([args.sweep, "export", args.results, cell_id, "-o", swf], check=True)
            env = gymnasium.make(ENV_ID, workload=swf, jobs=jobs, backfill=args.backfill, preset=args.preset)
            row = [workload, instance, load, jobs, episode_bsld(env, agent), episode_bsld(env, shortest_request),
                   sjf_bsld, ref_bsld]
            env.close()
            w.writerow(row[:4] + ["%.6f" % x for x in row[4:]])
            print("evaluate.py: %s instance %d load %.2f: agent %.1f; sjf %.1f in the environment, %.1f in sweep run; "
                  "%s %.1f" % (workload, instance, load, row[4], row[5], sjf_bsld, args.reference, ref_bsld),
                  file=sys.stderr)


if __name__ == "__main__":
    main()
