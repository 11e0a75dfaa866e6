"""Speed of RLScheduler's HPCEnv (its own code) under the fixed policies of bench_sweep.py.

    python bench_hpcenv.py RLSCHED_DIR TF_STUB_DIR WORKLOAD.swf   (docs/gym.md, "Speed")
"""
import sys, time
sys.path.insert(0, sys.argv[2]); sys.path.insert(0, sys.argv[1])
import numpy as np
from HPCSimPickJobs import HPCEnv
wl = sys.argv[3]
env = HPCEnv(shuffle=False, backfil=False, skip=False, job_score_type=0, batch_job_slice=0, build_sjf=False)
env.my_init(workload_file=wl)
env.seed(1)
pad = np.array([0, 1, 1, 1, 1, 1, 1, 0])
def sjf(obs):
    o = obs.reshape(128, 8)
    present = ~np.all(o == pad, axis=1)
    return int(np.argmin(np.where(present, o[:, 1], np.inf)))
for name, pol in (("sjf", sjf), ("slot-0", lambda obs: 0)):
    obs, _ = env.reset()
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 10:
        r = env.step(pol(obs)); steps += 1
        if r[2]: obs, _ = env.reset()
        else: obs = r[0]
    print("HPCEnv %s policy: %.0f steps/s (resets included)" % (name, steps / (time.perf_counter() - t0)))
n, t0 = 0, time.perf_counter()
while time.perf_counter() - t0 < 10:
    env.reset(); n += 1
print("HPCEnv resets/s: %.1f" % (n / (time.perf_counter() - t0)))
