"""train.py trains a MaskablePPO agent on sweep/Rigid-v0 on CPU and saves it.

    python train.py --loads 0.7 0.8 0.9 --timesteps 300000 --seed 1 --out results/rl/agent

writes
  OUT/model.zip           the agent (agent.py serves it as a manifest's policy)
  OUT/learning_curve.csv  one row per finished training episode: timesteps (the
                          total when it ended), episode, env (which of the
                          --envs environments), load, reward (the episode's
                          return: minus its mean bounded slowdown), length
                          (decisions), sjf_reward (the shortest visible
                          request's return on the same instance, replayed after
                          training)
  OUT/train.json          the arguments, the environment's setup (queue,
                          features, max_estimate_seconds: judge.yaml's agent
                          params must match them), versions, wall time, load

Each episode is a new Lublin-Feitelson instance (workload="lublin1999", Tsafrir
estimates) of --jobs jobs on --procs processors, drawn by the environment from
its seeded stream; environment i runs at the (i mod n)-th of the n --loads and
is seeded with seed + i. The `sweep` preset (K = 64 slots of 8 features), no
backfilling: the picked job is committed until it fits (docs/gym.md). Invalid
actions are masked (info["action_mask"], action_masks()). Before training,
Stable-Baselines3's check_env checks the environment, its warnings errors.

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
import warnings

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.vec_env import DummyVecEnv, VecNormalize

import sweep_policy  # noqa: F401 (registers sweep/Rigid-v0)
from kernel import KernelPolicy
from obspolicy import REQUEST_COLUMN, shortest_request

ENV_ID = "sweep/Rigid-v0"


class LearningCurve(BaseCallback):
    """Collects a row per training episode as it ends: the total steps then,
    the episode's number, its environment, its return and its length.

    The return is summed from the environments' own rewards (before
    VecNormalize scales them; SB3's DummyVecEnv resets an environment in the
    step that ends its episode), so no Monitor wrapper and no wall-clock
    column: the rows are the same on every run."""

    def __init__(self):
        super().__init__()
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
                                  "reward": self.returns[i], "length": int(self.lengths[i])})
                self.returns[i] = 0
                self.lengths[i] = 0
        return True


def sjf_rewards(args, rows):
    """The shortest visible request's return on each row's instance.

    Environment i's k-th episode is the k-th instance its stream (seeded
    seed + i) draws, whatever the agent did, so a fresh environment seeded
    alike and played by obspolicy.shortest_request replays the same instances:
    a reader can tell learning from easy and hard instances."""
    column = REQUEST_COLUMN[args.preset]
    returns = {}
    for i in range(args.envs):
        episodes = sum(1 for r in rows if r["env"] == i)
        env = make_env(args, i)()
        obs, info = env.reset(seed=args.seed + i)
        for k in range(episodes):
            total, done = 0.0, False
            while not done:
                obs, reward, terminated, truncated, info = env.step(
                    shortest_request(obs, info["action_mask"], column))
                total += reward
                done = terminated or truncated
            returns[i, k] = total
            obs, info = env.reset()
        env.close()
    seen = {}
    out = []
    for r in rows:
        k = seen.get(r["env"], 0)
        seen[r["env"]] = k + 1
        out.append(returns[r["env"], k])
    return out


def write_curve(path, args, rows, sjf):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["timesteps", "episode", "env", "load", "reward", "length", "sjf_reward"])
        for r, b in zip(rows, sjf):
            w.writerow([r["timesteps"], r["episode"], r["env"], load_of(args, r["env"]),
                        "%.6f" % r["reward"], r["length"], "%.6f" % b])


def load_of(args, i):
    return args.loads[i % len(args.loads)]


def make_env(args, i):
    def thunk():
        return gymnasium.make(ENV_ID, workload="lublin1999", procs=args.procs, load=load_of(args, i),
                              jobs=args.jobs, backfill=args.backfill, preset=args.preset)
    return thunk


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--loads", type=float, nargs="+", default=[0.7, 0.8, 0.9], help="offered loads")
    p.add_argument("--procs", type=int, default=256, help="the machine's processors")
    p.add_argument("--jobs", type=int, default=256, help="jobs per episode (RLScheduler's: 256)")
    p.add_argument("--backfill", choices=["none", "easy"], default="none")
    p.add_argument("--preset", choices=sorted(REQUEST_COLUMN), default="sweep")
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
    # Stable-Baselines3's own check of the environment (issue 33 asks that it
    # pass), its warnings made errors; a fraction of a second.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        checked = make_env(args, 0)()
        check_env(checked.unwrapped)
        checked.close()
    env = DummyVecEnv([make_env(args, i) for i in range(args.envs)])
    setup = env.envs[0].unwrapped._server.setup
    # The return is minus a mean bounded slowdown: from 1 to thousands from
    # one instance to the next. Unscaled, the value loss's gradient fills the
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
    curve = LearningCurve()
    start = time.monotonic()
    model.learn(total_timesteps=args.timesteps, callback=curve)
    seconds = time.monotonic() - start
    model.save(os.path.join(args.out, "model.zip"))
    env.close()
    write_curve(os.path.join(args.out, "learning_curve.csv"), args, curve.rows, sjf_rewards(args, curve.rows))

    with open("/proc/loadavg") as f:
        load = f.read().strip()
    record = {
        "args": vars(args),
        "setup": {k: setup[k] for k in ("queue", "features", "max_estimate_seconds") if k in setup},
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
