"""sweep's rigid-job scheduling environment for Gymnasium 1.x.

``import sweep_policy`` registers ``sweep/Rigid-v0`` (when gymnasium is
installed: ``pip install "./python[gym]"``)::

    import gymnasium, sweep_policy
    env = gymnasium.make("sweep/Rigid-v0", workload="SDSC-SP2.swf.gz", jobs=256,
                         backfill="none", preset="rlscheduler")
    obs, info = env.reset(seed=1, options={"first": 4299})
    obs, reward, terminated, truncated, info = env.step(0)

    envs = gymnasium.make_vec("sweep/Rigid-v0", num_envs=64,
                              vectorization_mode="vector_entry_point", workload=...)

The simulation runs in a ``sweep-gym`` server process (sweep's Go
simulator, engine/backfill's Stepper); one round trip steps every
environment, and the observations arrive as binary frames read straight
into a NumPy buffer this process owns (docs/gym.md gives the wire format).
The server is ``$SWEEP_GYM_BIN``, else ``$SWEEP_BIN gym``, else
``sweep-gym`` on the PATH, else ``sweep gym`` on the PATH.
"""

import json
import os
import shutil
import subprocess

import numpy as np
import gymnasium
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

try:
    import fcntl
except ImportError:  # not on Windows
    fcntl = None

__all__ = ["ENV_ID", "RigidEnv", "RigidVectorEnv", "ServerError", "serve_agent", "server_command"]

ENV_ID = "sweep/Rigid-v0"

_OP_RESET, _OP_STEP, _OP_CLOSE = 1, 2, 3

# The info fields that measure an ended episode (NaN before its end): in
# info once it ended, in info["final_info"] of the vector env.
_MEASURES = ("bsld", "wait_seconds", "utilisation")
# The info fields of the server (gym.InfoFields), the measures last.
_INFO_FIELDS = ("first", "now_seconds", "started") + _MEASURES


class ServerError(RuntimeError):
    """The sweep-gym server refused a request or died."""


def server_command():
    """The command that starts the server (see the module's doc)."""
    if os.environ.get("SWEEP_GYM_BIN"):
        return [os.environ["SWEEP_GYM_BIN"]]
    if os.environ.get("SWEEP_BIN"):
        return [os.environ["SWEEP_BIN"], "gym"]
    for name, args in (("sweep-gym", []), ("sweep", ["gym"])):
        path = shutil.which(name)
        if path:
            return [path] + args
    raise ServerError(
        "no sweep-gym server: set SWEEP_GYM_BIN to a sweep-gym binary (go build -o bin/sweep-gym ./cmd/sweep-gym), "
        "SWEEP_BIN to a sweep binary, or put either on the PATH")


class _Server:
    """One server process serving num_envs environments."""

    def __init__(self, config):
        self.command = server_command()
        try:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, bufsize=0)
        except OSError as e:
            raise ServerError("starting %s: %s" % (" ".join(self.command), e)) from None
        self._wfd = self.proc.stdin.fileno()
        self._readinto = self.proc.stdout.readinto
        self._write((json.dumps(config) + "\n").encode())
        line = self.proc.stdout.readline()
        if not line:
            self._died("answering the setup")
        setup = json.loads(line)
        if setup.get("error"):
            self.proc.wait()
            raise ValueError("sweep/Rigid-v0: %s" % setup["error"])
        self.setup = setup
        n = setup["num_envs"]
        _widen_pipe(self.proc.stdout.fileno(), setup["frame_bytes"])
        _frame_views(self, setup)
        self._reset_req = np.zeros(1 + 2 * n, dtype=np.int64)
        self._reset_req[0] = _OP_RESET
        self._step_req = np.zeros(1 + n, dtype=np.int32)
        self._step_req[0] = _OP_STEP
        self._step_req_bytes = memoryview(self._step_req.view(np.uint8))
        # One environment's step request per slot, made once: its step is
        # one os.write of bytes made beforehand and one readinto of the
        # frame (docs/gym.md, "Speed").
        self._slot_req = [np.array([_OP_STEP, a], dtype=np.uint32).tobytes() for a in range(self.k)] if n == 1 else []
        self._size = len(self._view)

    def _write(self, data):
        try:
            n = os.write(self._wfd, data)  # a pipe takes up to 4 KiB in one write
            while n < len(data):
                data = memoryview(data)[n:]
                n = os.write(self._wfd, data)
        except OSError:
            self._died("reading a request")

    def _read_frame(self, what):
        # The server writes a frame in one write: one read gets it.
        got = self._readinto(self._view)
        if got != self._size or self.status_word[0]:
            self._read_rest(what, got or 0)

    def _read_rest(self, what, got):
        """Reads the rest of a frame whose first read got `got` bytes, or
        the server's refusal (a status, then the message)."""
        view = self._view
        while got < len(view) and not (got >= 8 and self.status_word[0]):
            n = self._readinto(view[got:])
            if not n:
                break
            got += n
        if got >= 8 and self.status_word[0]:
            self._refused(what, got)
        if got < len(view):
            self._died(what)

    def _refused(self, what, got):
        """Raises the server's error message, which followed the status."""
        length = int(self.status[0])
        msg = bytes(self.buf[8:min(got, 8 + length)])
        while len(msg) < length:
            more = self.proc.stdout.read(length - len(msg))
            if not more:
                break
            msg += more
        self.proc.wait()
        raise ServerError("sweep-gym %s: %s" % (what, msg.decode(errors="replace")))

    def _died(self, what):
        code = self.proc.wait()
        err = self.proc.stderr.read().decode(errors="replace").strip()
        raise ServerError("the sweep-gym server (%s) died %s: exit status %s%s"
                          % (" ".join(self.command), what, code, ": " + err if err else ""))

    def reset(self, seeds, firsts):
        req = self._reset_req
        req[1::2] = seeds
        req[2::2] = firsts
        self._write(_reset_bytes(req))
        self._read_frame("resetting")

    def step(self, actions):
        self._step_req[1:] = actions
        self._write(self._step_req_bytes)
        self._read_frame("stepping")

    def step_one(self, action):
        """Steps the one environment: a slot's request made beforehand,
        anything else (out of range: the server says so) packed."""
        try:
            req = self._slot_req[action] if action >= 0 else None
        except (IndexError, TypeError):
            req = None
        if req is None:
            self._step_req[1:] = action
            self._write(self._step_req_bytes)
        else:
            try:
                os.write(self._wfd, req)  # 8 bytes: a pipe takes them whole
            except OSError:
                self._died("reading a request")
        got = self._readinto(self._view)
        if got != self._size or self.status_word[0]:
            self._read_rest("stepping", got or 0)

    def close(self):
        if self.proc.poll() is None:
            try:
                self._write(np.array([_OP_CLOSE], dtype=np.uint32).view(np.uint8))
                self.proc.stdin.close()
            except ServerError:
                pass
            self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


def _widen_pipe(fd, frame_bytes):
    """Lets the pipe from the server hold a whole frame (Linux: 64 KiB by
    default, up to /proc/sys/fs/pipe-max-size), so that the server writes
    it in one go and one read takes it, not one per 64 KiB with a switch
    between the processes each. Elsewhere, or beyond the limit, the frame
    comes in parts as before."""
    if frame_bytes <= 65536 or not hasattr(fcntl, "F_SETPIPE_SZ"):  # fcntl None included
        return
    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, frame_bytes)
    except OSError:  # beyond the limit: up to it
        try:
            with open("/proc/sys/fs/pipe-max-size") as f:
                fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, int(f.read()))
        except (OSError, ValueError):
            pass


def _frame_views(holder, setup):
    """Allocates the frame buffer of a setup and sets holder's views of its
    arrays (docs/gym.md, "Wire format")."""
    n, k, f, i = setup["num_envs"], setup["queue"], len(setup["features"]), len(setup["info"])
    holder.n, holder.k, holder.f = n, k, f
    holder.info_names = setup["info"]
    holder.buf = np.empty(setup["frame_bytes"], dtype=np.uint8)
    holder._view = memoryview(holder.buf)
    off = 8
    holder.status = holder.buf[:4].view(np.uint32)
    holder.status_word = holder._view[:4].cast("I")
    holder.reward = holder.buf[off:off + 8 * n].view(np.float64)
    holder.reward_values = holder._view[off:off + 8 * n].cast("d")
    off += 8 * n
    holder.info = holder.buf[off:off + 8 * n * i].view(np.float64).reshape(n, i)
    holder.first_info = holder._view[off:off + 8 * i].cast("d")  # the first environment's
    off += 8 * n * i
    holder.obs = holder.buf[off:off + 4 * n * k * f].view(np.float32).reshape(n, k * f)
    off += 4 * n * k * f
    holder.mask = holder.buf[off:off + n * k].view(np.bool_).reshape(n, k)
    off += n * k
    holder.terminated = holder.buf[off:off + n].view(np.bool_)
    holder.terminated_bytes = holder._view[off:off + n]
    off += n
    holder.truncated = holder.buf[off:off + n].view(np.bool_)


class _Frames:
    """The frames an agent process reads (serve_agent)."""


def serve_agent(act, stdin=None, stdout=None):
    """Runs a trained agent as a policy: sweep (a manifest's command entry
    with params {protocol: gym, ...}, or ``sweep-gym evaluate``) sends the
    setup line and then, per decision, the frame the environment would send
    (one environment); ``act(obs, mask, info)`` returns the slot to start,
    with ``obs`` and ``mask`` as ``step`` returns them (not copies: valid
    until act returns) and ``info`` the dict of the info fields. Returns
    when sweep closes the input. Log to stderr: stdout carries the actions.
    """
    import sys
    inp = stdin or sys.stdin.buffer
    out = stdout or sys.stdout.buffer
    line = inp.readline()
    if not line:
        return
    setup = json.loads(line)
    fr = _Frames()
    _frame_views(fr, setup)
    answer = np.zeros(1, dtype=np.int32)
    names = fr.info_names[:-len(_MEASURES)]
    while True:
        view, got = fr._view, 0
        while got < len(view):
            n = inp.readinto(view[got:])
            if not n:
                if got == 0:
                    return
                raise ServerError("the frame from sweep ended after %d of %d bytes" % (got, len(view)))
            got += n
        answer[0] = act(fr.obs[0], fr.mask[0], dict(zip(names, fr.info[0].tolist())))
        out.write(answer.tobytes())
        out.flush()


def _reset_bytes(req):
    """The reset request: the op as u32, then (i64 seed, i64 first) per env."""
    return np.uint32(req[0]).tobytes() + req[1:].tobytes()


def _observation_space(server, preset):
    # Features are in [0, 1]; under the rlscheduler preset a job whose log
    # has neither run time nor request shows HPCEnv's request of -1 s.
    low = -1.0 if preset == "rlscheduler" else 0.0
    return spaces.Box(low=low, high=1.0, shape=(server.k * server.f,), dtype=np.float32)


def _config(workload, jobs, backfill, preset, queue, reward, per_step, warmup, order, estimates, kill, procs, load,
            num_envs, autoreset):
    c = {"workload": os.fspath(workload), "jobs": jobs, "backfill": backfill, "preset": preset,
         "reward": reward, "per_step": per_step, "warmup": warmup, "order": order, "estimates": estimates,
         "num_envs": num_envs, "autoreset": autoreset}
    for key, value in (("queue", queue), ("kill", kill), ("procs", procs), ("load", load)):
        if value is not None:
            c[key] = value
    return c


class _Seeds:
    """Turns Gymnasium's seeds into the server's: a seed once, then -1 (go on)."""

    def __init__(self):
        self.seeded = False

    def next(self, seed, np_random):
        if seed is not None:
            self.seeded = True
            return int(seed)
        if not self.seeded:  # Gymnasium: an unseeded env draws its seed
            self.seeded = True
            return int(np_random.integers(0, 2**62))
        return -1


class RigidEnv(gymnasium.Env):
    """One environment: an episode is a window of ``jobs`` jobs of the SWF
    file ``workload`` (or a Lublin-Feitelson instance, workload="lublin1999"),
    scheduled one decision at a time.

    At each decision the agent picks a waiting job by its slot in the
    observation (``queue`` slots of the first waiting jobs in submit order,
    each a row of features: ``features``). The job starts if it fits, else it
    waits at the head of the queue until it does, the simulator backfilling
    the others behind it under backfill="easy" (RLScheduler's rule). An empty
    slot is masked (``info["action_mask"]``, ``action_masks()``); picking one
    anyway waits: nothing starts before the next arrival or completion (as
    HPCEnv skips), or, when nothing is left to wait for, raises ServerError. The reward is 0 until the last job starts, then minus
    the episode's mean bounded slowdown (reward="wait", "utilisation" and
    per_step=True change it). preset="rlscheduler" is RLScheduler's HPCEnv.
    """

    metadata = {"render_modes": []}

    def __init__(self, workload, jobs=256, backfill="none", preset="sweep", queue=None, reward="bsld",
                 per_step=False, warmup=0, order="fcfs", estimates="R", kill=None, procs=None, load=None,
                 render_mode=None):
        self._server = _Server(_config(workload, jobs, backfill, preset, queue, reward, per_step, warmup, order,
                                       estimates, kill, procs, load, 1, False))
        s = self._server
        self.features = s.setup["features"]
        self.observation_space = _observation_space(s, preset)
        self.action_space = spaces.Discrete(s.k)
        self.render_mode = render_mode
        self._seeds = _Seeds()
        # Views of the one environment's parts of the frame, made once.
        self._obs, self._mask, self._info_values = s.obs[0], s.mask[0], s.first_info
        self._open_names, self._ended_names = s.info_names[:-len(_MEASURES)], s.info_names
        self._known_info = tuple(s.info_names) == _INFO_FIELDS

    def _info(self):
        v = self._info_values
        if self._server.terminated_bytes[0] or not self._known_info:
            names = self._ended_names if self._server.terminated_bytes[0] else self._open_names
            info = dict(zip(names, v))
        else:  # a step's usual info, written out: twice as fast as the loop
            info = {"first": v[0], "now_seconds": v[1], "started": v[2]}
        info["action_mask"] = self._mask.copy()
        return info

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        first = -1
        if options and options.get("first") is not None:
            first = int(options["first"])
        self._server.reset([self._seeds.next(seed, self.np_random)], [first])
        return self._obs.copy(), self._info()

    def step(self, action):
        s = self._server
        s.step_one(action)
        return self._obs.copy(), s.reward_values[0], s.terminated_bytes[0] == 1, False, self._info()

    def action_masks(self):
        """The slots that hold a job (MaskablePPO's convention)."""
        return self._mask.copy()

    def close(self):
        if getattr(self, "_server", None) is not None:
            self._server.close()
            self._server = None


class RigidVectorEnv(VectorEnv):
    """num_envs RigidEnv stepped by one server round trip.

    Autoreset: same step (``metadata["autoreset_mode"]`` is
    AutoresetMode.SAME_STEP): when an episode ends, step returns its reward
    and terminated=True with the next episode's first observation;
    ``info["final_info"]`` (masked by ``info["_final_info"]``) holds the ended
    episode's measures. No ``final_obs`` is sent: an episode ends when its
    last job starts, and nothing is left to observe. reset(seed=S) seeds
    environment i with S + i; options={"first": K} (or a list of K per
    environment) pins the windows.
    """

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs=1, workload=None, jobs=256, backfill="none", preset="sweep", queue=None,
                 reward="bsld", per_step=False, warmup=0, order="fcfs", estimates="R", kill=None, procs=None,
                 load=None, render_mode=None):
        if workload is None:
            raise ValueError("sweep/Rigid-v0: workload: want an SWF file or lublin1999")
        self._server = _Server(_config(workload, jobs, backfill, preset, queue, reward, per_step, warmup, order,
                                       estimates, kill, procs, load, num_envs, True))
        s = self._server
        self.num_envs = num_envs
        self.features = s.setup["features"]
        self.single_observation_space = _observation_space(s, preset)
        self.single_action_space = spaces.Discrete(s.k)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.render_mode = render_mode
        self._seeds = None

    def _infos(self, ended=None):
        s = self._server
        infos = {"action_mask": s.mask.copy()}
        measures = {}
        for i, name in enumerate(s.info_names):
            if name in _MEASURES:
                measures[name] = s.info[:, i].copy()
            else:
                infos[name] = s.info[:, i].copy()
        if ended is not None and ended.any():
            infos["final_info"] = measures
            infos["_final_info"] = ended.copy()
        return infos

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        n = self.num_envs
        if seed is None:
            seeds = [-1] * n if self._seeds else [int(x) for x in self.np_random.integers(0, 2**62, size=n)]
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = [-1 if x is None else int(x) for x in seed]
        self._seeds = True
        first = (options or {}).get("first")
        firsts = [-1] * n if first is None else ([int(first)] * n if np.isscalar(first) else [int(x) for x in first])
        self._server.reset(seeds, firsts)
        return self._server.obs.copy(), self._infos()

    def step(self, actions):
        s = self._server
        s.step(np.asarray(actions, dtype=np.int32))
        ended = s.terminated.copy()
        return s.obs.copy(), s.reward.copy(), ended, s.truncated.copy(), self._infos(ended)

    def action_masks(self):
        return self._server.mask.copy()

    def close_extras(self, **kwargs):
        if getattr(self, "_server", None) is not None:
            self._server.close()
            self._server = None


def register():
    """Registers ENV_ID (import sweep_policy does it)."""
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="sweep_policy.gym:RigidEnv",
                           vector_entry_point="sweep_policy.gym:RigidVectorEnv")
