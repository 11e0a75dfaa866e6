"""Measure RLScheduler's HPCEnv for python/tests/data/rlscheduler_sdsc_sp2.json.

Runs RLScheduler's own code (DIR-LAB/deep-batch-scheduler at cd433e3d, extracted, not copied: give
its directory) on pinned windows of SDSC-SP2-1998-4.2-cln.swf (uncompressed), backfilling off,
under two policies (slot0: always action 0; sjf: the slot holding a job with the smallest observed
request), and writes every action, the SHA-1 of every observation as float32 and the final reward.
Run it with a Python that has gym 0.21 and numpy, TensorFlow stubbed (docs/policies.md, "Against
RLScheduler"):

    python reference.py RLSCHED_DIR TF_STUB_DIR SDSC-SP2-1998-4.2-cln.swf OUT.json
"""
import hashlib
import json
import sys

rlsched, stub, workload, out = sys.argv[1:5]
sys.path.insert(0, stub)
sys.path.insert(0, rlsched)
import numpy as np  # noqa: E402
from HPCSimPickJobs import HPCEnv  # noqa: E402

PAD = np.array([0, 1, 1, 1, 1, 1, 1, 0])


def episode(env, first, policy):
    class Pin:  # reset() draws the window's first job from np_random.randint: pin it
        def randint(self, lo, hi):
            return first
    env.np_random = Pin()
    obs, _ = env.reset()
    observations, actions = [obs.copy()], []
    while True:
        if policy == "slot0":
            a = 0
        else:
            o = obs.reshape(128, 8)
            present = ~np.all(o == PAD, axis=1)
            a = int(np.argmin(np.where(present, o[:, 1], np.inf)))
        actions.append(a)
        r = env.step(a)
        if r[2]:
            return observations, actions, r[1]
        obs = r[0]
        observations.append(obs.copy())


env = HPCEnv(shuffle=False, backfil=False, skip=False, job_score_type=0, batch_job_slice=0, build_sjf=False)
env.my_init(workload_file=workload)
env.seed(0)
windows = []
for first in (4299, 4039):
    for policy in ("slot0", "sjf"):
        observations, actions, reward = episode(env, first, policy)
        windows.append({"first": first, "policy": policy, "steps": len(actions), "reward": float(reward),
                        "actions": actions,
                        "obs_sha1": [hashlib.sha1(o.astype("<f4").tobytes()).hexdigest()[:16] for o in observations],
                        "obs_first_rows": observations[0].reshape(128, 8)[:4].tolist()})
ref = {}
ref["source"] = open(__file__).read().split('"""')[1].strip()
ref["windows"] = windows
json.dump(ref, open(out, "w"), indent=0)
