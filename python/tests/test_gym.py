"""Tests of sweep/Rigid-v0 (sweep_policy.gym) against a sweep-gym server.

Run by `make test-gym`, which builds the server into bin/sweep-gym and points
SWEEP_GYM_BIN at it.
"""

import hashlib
import json
import os
import signal

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

import sweep_policy  # noqa: E402,F401  (registers the environment)
from sweep_policy.gym import ENV_ID, ServerError  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SDSC_SP2 = os.environ.get("SWEEP_SDSC_SP2", os.path.join(HERE, "..", "..", "..", "shared", "traces",
                                                         "SDSC-SP2-1998-4.2-cln.swf.gz"))


@pytest.fixture
def trace(tmp_path):
    """A small SWF log: 8 processors, 200 jobs of 1-8 processors, a job every
    60 s, run times 100-1900 s, requests twice the run time, 5 users."""
    lines = ["; MaxProcs: 8", "; MaxNodes: 8"]
    for i in range(200):
        run = 100 + (i * 37) % 1800
        procs = 1 + (i * 5) % 8
        lines.append("%d %d -1 %d %d -1 -1 %d %d -1 1 %d 1 1 1 1 -1 -1"
                     % (i + 1, 60 * i, run, procs, procs, 2 * run, 1 + i % 5))
    path = tmp_path / "small.swf"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def run_episode(env, seed, policy=lambda obs, mask: int(np.flatnonzero(mask)[0]), first=None):
    """Steps one episode; returns the observations, rewards and last info."""
    obs, info = env.reset(seed=seed, options=None if first is None else {"first": first})
    observations, rewards = [obs], []
    while True:
        obs, reward, terminated, truncated, info = env.step(policy(obs, info["action_mask"]))
        rewards.append(reward)
        assert not truncated
        if terminated:
            return observations, rewards, info
        observations.append(obs)


def test_check_env(trace):
    from gymnasium.utils.env_checker import check_env
    env = gymnasium.make(ENV_ID, workload=trace, jobs=50)
    check_env(env.unwrapped, skip_render_check=True)
    env.close()


def test_api(trace):
    env = gymnasium.make(ENV_ID, workload=trace, jobs=50, backfill="easy")
    obs, info = env.reset(seed=3, options={"first": 7})
    assert obs.dtype == np.float32 and obs.shape == env.observation_space.shape == (64 * 8,)
    assert env.action_space == gymnasium.spaces.Discrete(64)
    assert info["first"] == 7 and info["action_mask"].dtype == np.bool_
    assert np.array_equal(env.unwrapped.action_masks(), info["action_mask"])
    # The first decision: job 7 alone waits, at its submit time 420 s, on an
    # empty machine: present, no wait, fits, the machine free, 1 of 64 slots.
    row = obs.reshape(64, 8)[0]
    assert info["now_seconds"] == 420
    assert row[0] == 1 and row[1] == 0 and row[4] == 1 and row[6] == 1 and row[7] == np.float32(1 / 64)
    assert row[3] == np.float32((1 + 7 * 5 % 8) / 8)
    assert not obs.reshape(64, 8)[1:].any() and info["action_mask"].sum() == 1
    env.close()


def test_determinism(trace):
    def episode(seed):
        env = gymnasium.make(ENV_ID, workload=trace, jobs=40)
        out = run_episode(env, seed)
        env.close()
        return out
    a, b, c = episode(11), episode(11), episode(12)
    assert all(np.array_equal(x, y) for x, y in zip(a[0], b[0])) and a[1] == b[1]
    assert a[2]["first"] == b[2]["first"] != c[2]["first"]


def test_reward_is_minus_mean_bsld(trace):
    env = gymnasium.make(ENV_ID, workload=trace, jobs=30)
    _, rewards, info = run_episode(env, 5)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == -info["bsld"] and info["bsld"] >= 1
    env.close()
    env = gymnasium.make(ENV_ID, workload=trace, jobs=30, per_step=True)
    _, per_step, info2 = run_episode(env, 5)
    assert info2["bsld"] == info["bsld"]
    assert sum(per_step) == pytest.approx(rewards[-1], rel=1e-12)
    env.close()


def test_vector_env_matches_single_envs(trace):
    n, seed = 16, 21  # 16 environments: a 2-core server steps them on two workers
    envs = gymnasium.make_vec(ENV_ID, num_envs=n, vectorization_mode="vector_entry_point", workload=trace, jobs=30)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=seed)
    assert obs.shape == (n, 64 * 8)
    firsts = list(infos["first"])
    ends = {}
    for _ in range(400):
        actions = [int(np.flatnonzero(m)[0]) for m in infos["action_mask"]]
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        for i in np.flatnonzero(terminated):
            if i not in ends:
                assert infos["_final_info"][i]
                ends[i] = (rewards[i], infos["final_info"]["bsld"][i])
        if len(ends) == n:
            break
    envs.close()
    assert len(ends) == n
    for i in range(n):
        env = gymnasium.make(ENV_ID, workload=trace, jobs=30)
        _, rewards, info = run_episode(env, seed + i)
        env.close()
        assert info["first"] == firsts[i]
        assert ends[i] == (rewards[-1], info["bsld"])


def test_vector_frame_in_one_pipe(trace):
    """A vector env's frame larger than a pipe's default 64 KiB: the pipe from
    the server is widened to hold it whole (Linux), and steps go on. 64
    environments of the sweep preset (K = 64, 8 features, 6 info fields): 8 +
    64 x (8 + 6 x 8 + 64 x 8 x 4 + 64 + 2) = 138,888 bytes (docs/gym.md, "Wire
    format")."""
    import fcntl
    if not hasattr(fcntl, "F_GETPIPE_SZ"):
        pytest.skip("no F_GETPIPE_SZ: not Linux")
    envs = gymnasium.make_vec(ENV_ID, num_envs=64, vectorization_mode="vector_entry_point", workload=trace, jobs=30)
    server = envs.unwrapped._server
    assert server.setup["frame_bytes"] == 138888
    assert fcntl.fcntl(server.proc.stdout.fileno(), fcntl.F_GETPIPE_SZ) >= 138888
    obs, infos = envs.reset(seed=3)
    for _ in range(40):
        obs, rewards, terminated, truncated, infos = envs.step(np.zeros(64, dtype=np.int32))
    assert obs.shape == (64, 64 * 8)
    envs.close()


def test_faults(trace, tmp_path):
    env = gymnasium.make(ENV_ID, workload=trace, jobs=30)
    _, info = env.reset(seed=1, options={"first": 10})
    # An empty slot, which the mask excludes, waits for the next event: job
    # 10, alone at 600 s on an empty machine, is still waiting when job 11
    # arrives at 660 s.
    empty = int(np.flatnonzero(~info["action_mask"])[0])
    obs, reward, terminated, _, info = env.step(empty)
    assert info["now_seconds"] == 660 and info["started"] == 0 and info["action_mask"].sum() == 2
    with pytest.raises(ServerError, match="action 999: want a slot, 0 to 63"):
        env.unwrapped.step(999)
    env.close()
    with pytest.raises(ValueError, match="backfill \"conservative\": want none or easy"):
        gymnasium.make(ENV_ID, workload=trace, backfill="conservative")
    with pytest.raises(ValueError, match="first job 9999"):
        env = gymnasium.make(ENV_ID, workload=trace, jobs=30)
        try:
            env.reset(options={"first": 9999})
        except ServerError as e:
            raise ValueError(str(e))
    env = gymnasium.make(ENV_ID, workload=trace, jobs=30)
    env.reset(seed=1)
    os.kill(env.unwrapped._server.proc.pid, signal.SIGKILL)
    with pytest.raises(ServerError, match="sweep-gym server .* died"):
        env.step(0)


def test_server_exits_when_python_goes(trace):
    """The server's input closes when this process dies: it exits at once."""
    env = gymnasium.make(ENV_ID, workload=trace, jobs=30)
    env.reset(seed=1)
    proc = env.unwrapped._server.proc
    proc.stdin.close()
    assert proc.wait(timeout=10) == 0


def test_lublin(trace):
    env = gymnasium.make(ENV_ID, workload="lublin1999", jobs=40, procs=64, load=0.9, backfill="easy")
    a = run_episode(env, 4)
    b = run_episode(env, 4)
    env.close()
    assert a[1] == b[1] and a[2]["bsld"] >= 1


@pytest.mark.skipif(not os.path.exists(SDSC_SP2), reason="SDSC-SP2-1998-4.2-cln.swf.gz absent (set SWEEP_SDSC_SP2)")
def test_rlscheduler_preset_is_hpcenv():
    """The rlscheduler preset against RLScheduler's own HPCEnv on two windows of
    256 SDSC-SP2 jobs, backfilling off, under two policies: every observation
    (SHA-1 of its float32 bytes), every action and the final reward, measured
    from RLScheduler's code by scripts/gym-rlscheduler/reference.py (its docstring says how)."""
    ref = json.load(open(os.path.join(HERE, "data", "rlscheduler_sdsc_sp2.json")))
    env = gymnasium.make(ENV_ID, workload=SDSC_SP2, jobs=256, backfill="none", preset="rlscheduler")
    assert env.observation_space.shape == (128 * 8,)
    for w in ref["windows"]:
        def policy(obs, mask):
            if w["policy"] == "slot0":
                return 0
            return int(np.argmin(np.where(mask, obs.reshape(128, 8)[:, 1], np.inf)))
        actions = []
        observations, rewards, info = run_episode(env, 0, lambda o, m: actions.append(policy(o, m)) or actions[-1],
                                                  first=w["first"])
        assert actions == w["actions"]
        assert np.array_equal(observations[0].reshape(128, 8)[:4], np.array(w["obs_first_rows"], dtype=np.float32))
        assert [hashlib.sha1(o.astype("<f4").tobytes()).hexdigest()[:16] for o in observations] == w["obs_sha1"]
        assert rewards[-1] == w["reward"]
    env.close()


AGENT = '''
import numpy as np
from sweep_policy.gym import serve_agent

def act(obs, mask, info):
    rows = obs.reshape(-1, 8)
    return int(np.argmin(np.where(mask, rows[:, 3], np.inf)))  # the fewest processors

serve_agent(act)
'''


def test_agent_evaluated_as_trained(trace, tmp_path):
    """An agent judged through sweep (sweep-gym evaluate, the code a manifest's
    {protocol: gym} command entry runs) sees what the environment showed it:
    the same decisions, so the same mean bounded slowdown to the last bit."""
    import subprocess
    import sys
    from sweep_policy.gym import server_command
    command = server_command()
    if command[-1] == "gym":
        pytest.skip("sweep-gym evaluate needs the sweep-gym binary (SWEEP_GYM_BIN)")
    env = gymnasium.make(ENV_ID, workload=trace, jobs=50, backfill="easy")
    policy = lambda obs, mask: int(np.argmin(np.where(mask, obs.reshape(-1, 8)[:, 3], np.inf)))
    _, _, info = run_episode(env, 0, policy, first=7)
    env.close()
    agent = tmp_path / "agent.py"
    agent.write_text(AGENT)
    out = subprocess.run(command + ["evaluate", "-workload", trace, "-first", "7", "-jobs", "50", "-backfill", "easy",
                                    "--", sys.executable, str(agent)], capture_output=True, text=True, check=True)
    got = json.loads(out.stdout)
    assert got["first"] == 7 and got["jobs"] == 50
    assert got["measures"]["bsld"] == info["bsld"] and got["measures"]["wait_seconds"] == info["wait_seconds"]
    assert min(got["start_seconds"]) >= 420
