"""HPCEnv and sweep/Rigid-v0 in alternating windows (docs/gym.md, "Speed").

On a machine shared with other work the load swings within seconds, so two
runs one after the other can see different machines. This driver keeps one
HPCEnv and one gymnasium.make environment warm in their own processes (their
own venvs) and steps them in turns of a few seconds under the same fixed
policy, ABBA, and prints each pair's ratio and the median:

    python bench_pairs.py HPCENV_PYTHON RLSCHED_DIR TF_STUB_DIR GYM_PYTHON WORKLOAD.swf PRESET [ROUNDS] [SECONDS]

The policies are bench_hpcenv.py's and bench_sweep.py's: sjf, the slot with
the shortest request in the observation (numpy), and slot-0; the policy's
time and the resets are included on both sides.
"""
import os
import subprocess
import sys
import time


def hpcenv_worker(rlsched, tf_stub, workload):
    out, sys.stdout = sys.stdout, sys.stderr  # HPCEnv prints: stdout is the driver's
    sys.path.insert(0, tf_stub)
    sys.path.insert(0, rlsched)
    import numpy as np
    from HPCSimPickJobs import HPCEnv
    env = HPCEnv(shuffle=False, backfil=False, skip=False, job_score_type=0, batch_job_slice=0, build_sjf=False)
    env.my_init(workload_file=workload)
    env.seed(1)
    pad = np.array([0, 1, 1, 1, 1, 1, 1, 0])

    def sjf(obs):
        o = obs.reshape(128, 8)
        return int(np.argmin(np.where(~np.all(o == pad, axis=1), o[:, 1], np.inf)))

    policies = {"sjf": sjf, "slot-0": lambda obs: 0}
    obs, _ = env.reset()
    state = {"obs": obs}

    def run(policy, seconds):
        pol, obs, steps, t0 = policies[policy], state["obs"], 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            r = env.step(pol(obs))
            steps += 1
            obs = env.reset()[0] if r[2] else r[0]
        state["obs"] = obs
        return steps / (time.perf_counter() - t0)
    serve(run, out)


def sweep_worker(workload, preset):
    import numpy as np
    import gymnasium
    import sweep_policy  # noqa: F401 (registers sweep/Rigid-v0)
    env = gymnasium.make("sweep/Rigid-v0", workload=workload, jobs=256, backfill="none", preset=preset)
    k = env.action_space.n
    col = 1 if preset == "rlscheduler" else 2

    def sjf(obs, mask):
        return int(np.argmin(np.where(mask, obs.reshape(k, 8)[:, col], np.inf)))

    policies = {"sjf": sjf, "slot-0": lambda obs, mask: 0}
    obs, info = env.reset(seed=1)
    state = {"obs": obs, "info": info}

    def run(policy, seconds):
        pol, obs, info, steps, t0 = policies[policy], state["obs"], state["info"], 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            obs, r, term, trunc, info = env.step(pol(obs, info["action_mask"]))
            steps += 1
            if term:
                obs, info = env.reset()
        state["obs"], state["info"] = obs, info
        return steps / (time.perf_counter() - t0)
    serve(run, sys.stdout)


def serve(run, out):
    """Answers each line "POLICY SECONDS" with the steps/s of a window."""
    print("ready", file=out, flush=True)
    for line in sys.stdin:
        policy, seconds = line.split()
        print("%.1f" % run(policy, float(seconds)), file=out, flush=True)


class Worker:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        if self.p.stdout.readline().strip() != "ready":
            raise SystemExit("%s did not start" % argv)

    def run(self, policy, seconds):
        self.p.stdin.write("%s %s\n" % (policy, seconds))
        self.p.stdin.flush()
        return float(self.p.stdout.readline())


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--hpcenv":
        return hpcenv_worker(*sys.argv[2:5])
    if len(sys.argv) > 1 and sys.argv[1] == "--sweep":
        return sweep_worker(*sys.argv[2:4])
    hpc_python, rlsched, tf_stub, gym_python, workload, preset = sys.argv[1:7]
    rounds = int(sys.argv[7]) if len(sys.argv) > 7 else 6
    seconds = float(sys.argv[8]) if len(sys.argv) > 8 else 2
    me = os.path.abspath(__file__)
    hpc = Worker([hpc_python, me, "--hpcenv", rlsched, tf_stub, workload])
    ours = Worker([gym_python, me, "--sweep", workload, preset])
    print("load average at the start: %s" % open("/proc/loadavg").read().strip())
    for policy in ("sjf", "slot-0"):
        ratios = []
        for i in range(rounds):
            if i % 2 == 0:
                a = hpc.run(policy, seconds)
                b = ours.run(policy, seconds)
            else:
                b = ours.run(policy, seconds)
                a = hpc.run(policy, seconds)
            ratios.append(b / a)
            print("%s round %d: HPCEnv %.0f, sweep %s %.0f steps/s: %.1fx" % (policy, i + 1, a, preset, b, b / a))
        ratios.sort()
        print("%s: median ratio %.1fx (min %.1fx, max %.1fx)" % (policy, ratios[len(ratios) // 2], ratios[0], ratios[-1]))
    print("load average at the end: %s" % open("/proc/loadavg").read().strip())
    for w in (hpc, ours):
        w.p.stdin.close()
        w.p.wait()


if __name__ == "__main__":
    main()
