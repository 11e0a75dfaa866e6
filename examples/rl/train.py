"""train.py trains a MaskablePPO agent on sweep/Rigid-v0 on CPU and saves it.

    python train.py --workload w0.7.swf w0.8.swf w0.9.swf --timesteps 200000 --seed 1 --out runs/agent

writes
  OUT/model.zip           the agent (sb3_contrib.MaskablePPO.load reads it)
  OUT/learning_curve.csv  one row per finished training episode: timesteps (the
                          total when it ended), episode, env (which of the
                          --envs environments), workload and first (the
                          window: its file and first job), reward (the
                          episode's return: under the rlscheduler preset minus
                          the window's mean bounded slowdown), length
                          (decisions), sjf_reward (sjf's return on the same
                          window, played after training)
  OUT/train.json          the arguments, the versions and the wall time

The episodes are windows of --jobs jobs drawn from the seed (environment i
reads the (i mod n)-th of the n --workload files and is seeded with seed + i),
scheduled as RLScheduler's environment does under the rlscheduler preset (backfill none by default).
Invalid actions are masked (info["action_mask"], env.action_masks()).

Reproducible: the same arguments give the same learning_curve.csv and the same
model, on one thread (torch.set_num_threads(1), which is also the fastest for
a network this small on a shared 2-core machine). Only train.json's wall times
differ between runs.
"""

import argparse
import csv
import json
import os
import platform
import sys
import time

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

import sweep_policy  # noqa: F401 (registers sweep/Rigid-v0)
from kernel import KernelPolicy
from obspolicy import shortest_request

ENV_ID = "sweep/Rigid-v0"


class LearningCurve(BaseCallback):
    """Collects a row per training episode as it ends: the total steps then,
    the episode's number, its environment, its window (the workload file and
    the first job, info["first"]), its return and its length.

    The return is summed from the environments' own rewards (before
    VecNormalize scales them; SB3's DummyVecEnv resets an environment in the
    step that ends its episode and hands back that step's info), so no Monitor
    wrapper and no wall-clock column: the rows are the same on every run."""

    def __init__(self, workloads):
        super().__init__()
        self.workloads = workloads
        self.rows = []

    def _on_training_start(self):
        n = self.training_env.num_envs
        self.returns = np.zeros(n)
        self.lengths = np.zeros(n, dtype=np.int64)

    def _on_step(self):
        self.returns += self.training_env.get_original_reward()
        self.lengths += 1
        for i, done in enumerate(self.locals["dones"]):
            if done:
                self.rows.append({"timesteps": self.num_timesteps, "episode": len(self.rows), "env": i,
                                  "workload": self.workloads[i % len(self.workloads)],
                                  "first": int(self.locals["infos"][i]["first"]),
                                  "reward": self.returns[i], "length": int(self.lengths[i])})
                self.returns[i] = 0
                self.lengths[i] = 0
        return True


def sjf_rewards(args, rows):
    """sjf's return on each row's window: the same window played by the
    shortest requested time read off the observation (obspolicy), so that a
    reader can tell learning from easy and hard windows."""
    by_window = {}
    for workload in sorted({r["workload"] for r in rows}):
        env = make_env(args, workload)()
        for first in sorted({r["first"] for r in rows if r["workload"] == workload}):
            obs, info = env.reset(seed=0, options={"first": first})
            total, done = 0.0, False
            while not done:
                obs, reward, terminated, truncated, info = env.step(shortest_request(obs, info["action_mask"]))
                total += reward
                done = terminated or truncated
            by_window[workload, first] = total
        env.close()
    return [by_window[r["workload"], r["first"]] for r in rows]


def write_curve(path, rows, sjf):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["timesteps", "episode", "env", "workload", "first", "reward", "length", "sjf_reward"])
        for r, b in zip(rows, sjf):
            w.writerow([r["timesteps"], r["episode"], r["env"], os.path.basename(r["workload"]), r["first"],
                        "%.6f" % r["reward"], r["length"], "%.6f" % b])


def make_env(args, workload):
    def thunk():
        return gymnasium.make(ENV_ID, workload=workload, jobs=args.jobs,
                              backfill=args.backfill, preset=args.preset)
    return thunk


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--workload", required=True, nargs="+",
                   help="SWF files (gzipped or not) whose headers give the machine size")
    p.add_argument("--jobs", type=int, default=256, help="jobs per episode (RLScheduler's: 256)")
    p.add_argument("--backfill", choices=["none", "easy"], default="none")
    p.add_argument("--preset", default="rlscheduler")
    p.add_argument("--timesteps", type=int, default=200_000)
    p.add_argument("--envs", type=int, default=3, help="environments stepped together")
    p.add_argument("--n-steps", type=int, default=1024, help="decisions per environment per update")
    p.add_argument("--net", choices=["kernel", "mlp"], default="kernel",
                   help="kernel: RLScheduler's per-slot scorer (kernel.py); mlp: SB3's MLP over the whole observation")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="output folder")
    args = p.parse_args(argv)

    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)
    env = DummyVecEnv([make_env(args, args.workload[i % len(args.workload)]) for i in range(args.envs)])
    # The return is minus a mean bounded slowdown: from 1 to thousands from
    # one window to the next. Unscaled, the value loss's gradient fills the
    # gradient-norm clip (max_grad_norm bounds the policy's and the value's
    # gradients together) and the policy hardly moves; VecNormalize divides
    # the rewards by a running deviation of the return (gamma 1, as below).
    env = VecNormalize(env, norm_obs=False, norm_reward=True, gamma=1.0)
    # gamma 1 and lambda 0.97 are RLScheduler's (the reward comes once, at the
    # episode's end).
    policy, policy_kwargs = (KernelPolicy, {}) if args.net == "kernel" else ("MlpPolicy", {"net_arch": [64, 32]})
    model = MaskablePPO(
        policy, env, seed=args.seed, device="cpu", verbose=0,
        n_steps=args.n_steps, batch_size=256, n_epochs=4, learning_rate=3e-4,
        gamma=1.0, gae_lambda=0.97, clip_range=0.2, ent_coef=0.0,
        policy_kwargs=policy_kwargs,
    )
    curve = LearningCurve(args.workload)
    start = time.monotonic()
    model.learn(total_timesteps=args.timesteps, callback=curve)
    seconds = time.monotonic() - start
    model.save(os.path.join(args.out, "model.zip"))
    env.close()
    write_curve(os.path.join(args.out, "learning_curve.csv"), curve.rows, sjf_rewards(args, curve.rows))

    with open("/proc/loadavg") as f:
        load = f.read().strip()
    record = {
        "args": vars(args),
        "wall_seconds": round(seconds, 1),
        "steps_per_second": round(model.num_timesteps / seconds),
        "loadavg_at_end": load,
        "python": platform.python_version(),
        "versions": {m.__name__: getattr(m, "__version__", "?") for m in (torch, gymnasium, np)},
        "sb3_contrib": __import__("sb3_contrib").__version__,
        "stable_baselines3": __import__("stable_baselines3").__version__,
    }
    with open(os.path.join(args.out, "train.json"), "w") as f:
        json.dump(record, f, indent=1)
    print("train.py: %d steps in %.1f s (%d steps/s, loadavg %s); %s"
          % (model.num_timesteps, seconds, record["steps_per_second"], load, args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
