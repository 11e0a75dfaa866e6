"""Speed of sweep/Rigid-v0 under fixed policies, their time included (docs/gym.md, "Speed").

    python bench_sweep.py WORKLOAD.swf [rlscheduler|sweep]
"""
import sys, time, numpy as np, gymnasium, sweep_policy
wl = sys.argv[1] if len(sys.argv) > 1 else "sdsc.swf"
kw = dict(workload=wl, jobs=256, backfill="none")
if wl == "lublin1999": kw.update(procs=256)
preset = sys.argv[2] if len(sys.argv) > 2 else "sweep"
kw["preset"] = preset
def sjf(obs, mask, k):
    o = obs.reshape(k, 8)
    return int(np.argmin(np.where(mask, o[:, 1] if preset=="rlscheduler" else o[:, 2], np.inf)))
env = gymnasium.make("sweep/Rigid-v0", **kw)
k = env.action_space.n
# steps/s under the fixed sjf-from-observation policy, its time included
obs, info = env.reset(seed=1)
steps, t0 = 0, time.perf_counter()
while time.perf_counter() - t0 < 5:
    obs, r, term, trunc, info = env.step(sjf(obs, info["action_mask"], k)); steps += 1
    if term: obs, info = env.reset()
dt = time.perf_counter() - t0
print("single env (gymnasium.make, wrappers on), sjf policy: %.0f steps/s (resets included)" % (steps / dt))
obs, info = env.reset(seed=1)
steps, t0 = 0, time.perf_counter()
while time.perf_counter() - t0 < 5:
    obs, r, term, trunc, info = env.step(0); steps += 1
    if term: obs, info = env.reset()
dt = time.perf_counter() - t0
print("single env, slot-0 policy: %.0f steps/s" % (steps / dt))
n, t0 = 0, time.perf_counter()
while time.perf_counter() - t0 < 3:
    env.reset(); n += 1
print("resets/s: %.0f" % (n / (time.perf_counter() - t0)))
env.close()
N = 64
envs = gymnasium.make_vec("sweep/Rigid-v0", num_envs=N, vectorization_mode="vector_entry_point", **kw)
obs, infos = envs.reset(seed=1)
steps, t0 = 0, time.perf_counter()
while time.perf_counter() - t0 < 5:
    o = obs.reshape(N, k, 8)
    col = o[:, :, 1] if preset=="rlscheduler" else o[:, :, 2]
    a = np.argmin(np.where(infos["action_mask"], col, np.inf), axis=1)
    obs, r, term, trunc, infos = envs.step(a); steps += N
print("vector env of %d, sjf policy (vectorised): %.0f steps/s" % (N, steps / (time.perf_counter() - t0)))
steps, t0 = 0, time.perf_counter()
a = np.zeros(N, dtype=np.int32)
while time.perf_counter() - t0 < 5:
    obs, r, term, trunc, infos = envs.step(a); steps += N
print("vector env of %d, slot-0: %.0f steps/s" % (N, steps / (time.perf_counter() - t0)))
envs.close()
