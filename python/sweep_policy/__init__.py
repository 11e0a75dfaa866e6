"""Write a sweep scheduling policy in Python.

sweep runs your policy as a separate process and talks to it over its
stdin and stdout, one JSON object per line (the protocol is in
docs/protocol.md of the sweep repository). This module speaks the
protocol for you: subclass RigidPolicy (rigid jobs on one cluster, the
trace-month model) or DAGPolicy (DAG jobs on a grid), fill in the
callbacks, and call run() with an instance of your class:

    from sweep_policy import RigidPolicy, run

    class FCFS(RigidPolicy):
        def decide(self):
            return self.head_while_fits(self.waiting)

    if __name__ == "__main__":
        run(FCFS())

Anything you print to stdout breaks the protocol: log to stderr (sweep
quotes your last stderr lines when your policy fails a cell).
"""

import json
import sys

__all__ = ["PROTOCOL_VERSION", "Job", "RigidPolicy", "DAGJob", "DAGPolicy", "run"]

PROTOCOL_VERSION = 1


class Job:
    """A rigid job: id (what you answer with), submit time (s), procs,
    estimate (s: the run time under estimate T, the requested time under
    R), user, and start (s, None while it waits)."""

    __slots__ = ("id", "submit", "procs", "estimate", "user", "start")

    def __init__(self, id, submit, procs, estimate, user):
        self.id = id
        self.submit = submit
        self.procs = procs
        self.estimate = estimate
        self.user = user
        self.start = None

    def __repr__(self):
        return "Job(id=%d, submit=%d, procs=%d, estimate=%d)" % (self.id, self.submit, self.procs, self.estimate)


class RigidPolicy:
    """Base class of a rigid-job policy.

    At each decision point sweep tells what changed; the base class keeps
    the state and calls decide(), which returns the jobs (Job objects or
    ids) to start now, in order. Each must wait and fit what the jobs
    before it left free. State, read it in decide():

      now      the simulation time, seconds
      procs    the cluster's processors; free: those free now
      waiting  the waiting jobs in submit order (a list of Job)
      running  the running jobs by id (a dict of Job, with .start)
      params   the policy's params from the manifest (strings)
      estimate "T" or "R": what Job.estimate is

    Override on_submit(job) and on_finish(job) to keep state of your own.
    """

    def __init__(self):
        self.now = 0
        self.procs = 0
        self.free = 0
        self.waiting = []
        self.running = {}
        self.params = {}
        self.estimate = "T"
        self.name = ""

    # Callbacks.
    def on_hello(self, hello):
        """Called once with the hello message (a dict) before anything."""

    def on_submit(self, job):
        """Called for each job submitted, before decide()."""

    def on_finish(self, job):
        """Called for each job finished, before decide()."""

    def decide(self):
        """Return the jobs to start now."""
        raise NotImplementedError("a RigidPolicy overrides decide()")

    # Helpers.
    def head_while_fits(self, order):
        """The jobs of order, from the head, while each fits (FCFS's rule)."""
        starts, free = [], self.free
        for job in order:
            if job.procs > free:
                break
            free -= job.procs
            starts.append(job)
        return starts

    def easy(self, order):
        """EASY backfilling over order (a list of waiting jobs, highest
        priority first): start from the head while jobs fit; the first
        that does not is promised its shadow time (when enough running
        jobs are estimated to have ended, every job ending then counted);
        a later job starts if it fits now and either ends by the shadow
        or uses only processors the head leaves spare then. This is the
        rule of sweep's built-in fcfs-easy."""
        starts = self.head_while_fits(order)
        k = len(starts)
        if k == len(order):
            return starts
        free = self.free - sum(j.procs for j in starts)
        ends = [(j.start + j.estimate, j.procs) for j in self.running.values()]
        ends += [(self.now + j.estimate, j.procs) for j in starts]
        ends.sort(key=lambda e: e[0])
        need = order[k].procs
        avail = free
        i = 0
        while i < len(ends):
            avail += ends[i][1]
            if avail >= need:
                break
            i += 1
        shadow = ends[i][0]
        i += 1
        while i < len(ends) and ends[i][0] == shadow:
            avail += ends[i][1]
            i += 1
        extra = avail - need
        for job in order[k + 1:]:
            n = job.procs
            if n > free:
                continue
            if self.now + job.estimate <= shadow:
                pass
            elif n <= extra:
                extra -= n
            else:
                continue
            free -= n
            starts.append(job)
        return starts

    # Protocol.
    model = "rigid"

    def _hello(self, msg):
        self.procs = self.free = msg["platform"]["procs"]
        self.params = msg.get("params", {})
        self.estimate = msg["workload"]["estimate"]
        self.name = msg.get("policy", "")
        self.on_hello(msg)

    def _decide(self, msg):
        self.now = msg["now"]
        self.free = msg["free"]
        running = self.running
        for jid in msg["finished"]:
            self.on_finish(running.pop(jid))
        for j in msg["submitted"]:
            job = Job(j["id"], j["submit"], j["procs"], j["estimate"], j["user"])
            self.waiting.append(job)
            self.on_submit(job)
        starts = self.decide() or []
        ids = []
        started = set()
        for job in starts:
            if not isinstance(job, Job):
                job = next(w for w in self.waiting if w.id == job)
            job.start = self.now
            running[job.id] = job
            started.add(job.id)
            ids.append(job.id)
        if started:
            self.waiting = [w for w in self.waiting if w.id not in started]
        return {"start": ids}


class DAGJob:
    """A DAG job whose first task just became ready: id, name, arrival
    (ticks), tasks, volume (core-ticks), critical_path (ticks)."""

    __slots__ = ("id", "name", "arrival", "tasks", "volume", "critical_path")

    def __init__(self, d):
        self.id = d["id"]
        self.name = d["name"]
        self.arrival = d["arrival"]
        self.tasks = d["tasks"]
        self.volume = d["volume"]
        self.critical_path = d["critical_path"]


class DAGPolicy:
    """Base class of a DAG ordering policy: priority(job) gives each job a
    number when its first task becomes ready; ready tasks run by their
    job's priority, smallest first (ties: job index, then the tick the
    task became ready, then task index). now is the current tick; clusters
    the platform's clusters (name, kind, cores); params the manifest's."""

    def __init__(self):
        self.now = 0
        self.clusters = []
        self.params = {}
        self.name = ""

    def on_hello(self, hello):
        """Called once with the hello message (a dict) before anything."""

    def priority(self, job):
        raise NotImplementedError("a DAGPolicy overrides priority(job)")

    model = "dag"

    def _hello(self, msg):
        self.clusters = msg["platform"]["clusters"]
        self.params = msg.get("params", {})
        self.name = msg.get("policy", "")
        self.on_hello(msg)

    def _jobs(self, msg):
        self.now = msg["now"]
        return {"priority": [self.priority(DAGJob(j)) for j in msg["jobs"]]}


def run(policy, stdin=None, stdout=None):
    """Serve sweep's messages with policy until the end message."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout
    loads, dumps = json.loads, json.dumps
    handlers = {"decide": getattr(policy, "_decide", None), "jobs": getattr(policy, "_jobs", None)}
    for line in stdin:
        msg = loads(line)
        kind = msg["type"]
        if kind == "hello":
            if msg["protocol"] != PROTOCOL_VERSION:
                sys.stderr.write("sweep_policy speaks protocol %d, sweep sent %d\n" % (PROTOCOL_VERSION, msg["protocol"]))
            if msg["model"] != policy.model:
                raise ValueError("this policy is for the %s model; sweep runs it on a %s workload: this policy is not for that model"
                                 % (policy.model, msg["model"]))
            policy._hello(msg)
            reply = {"type": "hello", "protocol": PROTOCOL_VERSION}
        elif kind == "end":
            return
        else:
            handler = handlers.get(kind)
            if handler is None:
                raise ValueError("message type %r: this policy is not for that model" % kind)
            reply = handler(msg)
        stdout.write(dumps(reply, separators=(",", ":")))
        stdout.write("\n")
        stdout.flush()


try:  # the environment, when the gym extra is installed: pip install "./python[gym]"
    import gymnasium as _gymnasium  # noqa: F401
except ImportError:
    pass
else:
    from . import gym as _gym

    _gym.register()
