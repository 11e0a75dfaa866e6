"""bench_env.py measures an environment's steps/s and resets/s under a fixed policy.

Two backends, the same policies, the same windows, so that the two can be
compared back to back (issue 33's speed criterion):

  rlscheduler  RLScheduler's own HPCEnv (DIR-LAB/deep-batch-scheduler,
               HPCSimPickJobs.py), imported from --rlscheduler DIR (an
               extracted copy of its repository; never copied here). It needs
               gym 0.21 and numpy (/work/ref/venv); TensorFlow, which its
               module imports but its environment never calls, is replaced by
               an empty module.
  sweep        sweep's sweep/Rigid-v0 made with gymnasium.make (its default
               wrappers on), preset rlscheduler, backfill none.

Policies read only the observation (obspolicy.py: RLScheduler's layout), so
their cost is the same on both sides and is counted in the step time:
  sjf    the visible job with the shortest requested time
  slot0  always slot 0

Windows: RLScheduler's reset draws a window of 256 jobs from its np_random
(seeded by --seed) in [256, batch_job_slice - 257); the rlscheduler backend
writes the window starts it drew to --starts, and the sweep backend reads
them from --starts and pins each episode with options={"first": K}.

Timing: steps/s is steps over the time spent in policy + step; resets/s is
episodes over the time spent in reset; both with time.perf_counter. The load
average is printed before and after.
"""

import argparse
import os
import sys
import time
import types

import numpy as np

from obspolicy import POLICIES

JOBS_PER_EPISODE = 256


def loadavg():
    with open("/proc/loadavg") as f:
        return f.read().strip()


class RLSchedulerEnv:
    """RLScheduler's HPCEnv behind reset() -> obs and step(a) -> (obs, reward, done)."""

    def __init__(self, code_dir, workload, batch_job_slice, seed):
        sys.modules.setdefault("tensorflow", types.ModuleType("tensorflow"))
        sys.path.insert(0, code_dir)
        from HPCSimPickJobs import HPCEnv  # noqa: E402 (RLScheduler's module)

        self.env = HPCEnv(shuffle=0, backfil=0, skip=0, job_score_type=0,
                          batch_job_slice=batch_job_slice, build_sjf=False)
        self.env.my_init(workload_file=workload)
        self.env.seed(seed)
        self.starts = []

    def reset(self):
        obs, _ = self.env.reset()
        self.starts.append(self.env.start)
        return obs

    def step(self, action):
        obs, reward, done, *_ = self.env.step(action)
        return obs, reward, done


class SweepEnv:
    """sweep/Rigid-v0 made with gymnasium.make, each episode pinned to a start."""

    def __init__(self, workload, starts, seed):
        import gymnasium
        import sweep_policy  # noqa: F401 (registers sweep/Rigid-v0)

        self.env = gymnasium.make("sweep/Rigid-v0", workload=workload, jobs=JOBS_PER_EPISODE,
                                  backfill="none", preset="rlscheduler")
        self.starts = list(starts)
        self.seed = seed
        self.episode = 0

    def reset(self):
        first = self.starts[self.episode % len(self.starts)]
        obs, _ = self.env.reset(seed=self.seed + self.episode, options={"first": first})
        self.episode += 1
        return obs

    def step(self, action):
        obs, reward, terminated, truncated, _ = self.env.step(action)
        return obs, reward, terminated or truncated


def run(env, policy, episodes):
    steps = 0
    reset_seconds = step_seconds = 0.0
    rewards = []
    for _ in range(episodes):
        t0 = time.perf_counter()
        obs = env.reset()
        t1 = time.perf_counter()
        reset_seconds += t1 - t0
        done = False
        while not done:
            obs, reward, done = env.step(policy(obs))
            steps += 1
        step_seconds += time.perf_counter() - t1
        rewards.append(reward)
    return steps, reset_seconds, step_seconds, rewards


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("backend", choices=["rlscheduler", "sweep"])
    p.add_argument("--workload", required=True, help="SWF file (RLScheduler needs it uncompressed)")
    p.add_argument("--rlscheduler", help="directory of RLScheduler's code (HPCSimPickJobs.py)")
    p.add_argument("--policy", choices=sorted(POLICIES), default="sjf")
    p.add_argument("--episodes", type=int, default=50)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--batch-job-slice", type=int, default=10000,
                   help="RLScheduler draws windows from its first N jobs (its SDSC-SP2 table: 10000)")
    p.add_argument("--starts", required=True,
                   help="file of window starts: written by the rlscheduler backend, read by sweep")
    a = p.parse_args()

    if a.backend == "rlscheduler":
        if not a.rlscheduler:
            p.error("the rlscheduler backend needs --rlscheduler DIR")
        env = RLSchedulerEnv(os.path.abspath(a.rlscheduler), a.workload, a.batch_job_slice, a.seed)
    else:
        with open(a.starts) as f:
            starts = [int(line) for line in f if line.strip()]
        if not starts:
            sys.exit("%s: no window starts (run the rlscheduler backend first)" % a.starts)
        env = SweepEnv(a.workload, starts, a.seed)

    before = loadavg()
    steps, reset_s, step_s, rewards = run(env, POLICIES[a.policy], a.episodes)
    after = loadavg()
    if a.backend == "rlscheduler":
        with open(a.starts, "w") as f:
            f.write("".join("%d\n" % s for s in env.starts))
    print("backend=%s policy=%s episodes=%d steps=%d" % (a.backend, a.policy, a.episodes, steps))
    print("steps/s=%.0f resets/s=%.1f (step %.2f s, reset %.2f s)"
          % (steps / step_s, a.episodes / reset_s, step_s, reset_s))
    print("mean final reward=%.4f (RLScheduler: minus the window's mean bounded slowdown)"
          % float(np.mean(rewards)))
    print("loadavg before: %s" % before)
    print("loadavg after:  %s" % after)


if __name__ == "__main__":
    main()
