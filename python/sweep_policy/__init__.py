"""Write a sweep scheduling policy in Python.

sweep runs your policy as a separate process and talks to it over its
stdin and stdout, one JSON object per line (the protocol is in
docs/protocol.md of the sweep repository). This module speaks the
protocol for you: subclass RigidPolicy (rigid jobs on one cluster of
processors, the trace-month model, or on a platform of nodes: protocol
version 2, see RigidPolicy) or DAGPolicy (DAG jobs on a grid), fill in
the callbacks, and call run() with an instance of your class:

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

__all__ = ["PROTOCOL_VERSION", "PROTOCOL_VERSIONS", "Job", "Request", "Partition", "Free", "RigidPolicy",
           "DAGJob", "DAGPolicy", "run"]

# The newest protocol version this client speaks, and all it speaks: 1 on
# processors (and for DAGs), 2 on platforms of nodes. It answers the hello
# with the version sweep sent.
PROTOCOL_VERSION = 2
PROTOCOL_VERSIONS = (1, 2)


class Request:
    """What a job asks of a platform of nodes (protocol 2): nodes nodes
    with cores, memory (MiB) and gpus per node; or, when pooled (nodes
    0), the job's procs cores wherever they are, with memory_per_core MiB
    each; partition, a name or "" for any (then all its nodes are in one
    partition); exclusive: it holds whole, entirely free nodes."""

    __slots__ = ("nodes", "cores", "memory", "gpus", "memory_per_core", "partition", "exclusive")

    def __init__(self, d):
        self.nodes = d["nodes"]
        self.cores = d["cores"]
        self.memory = d["memory"]
        self.gpus = d["gpus"]
        self.memory_per_core = d["memory_per_core"]
        self.partition = d["partition"]
        self.exclusive = d["exclusive"]

    @property
    def pooled(self):
        return self.nodes == 0

    def __repr__(self):
        if self.pooled:
            what = "pooled cores, %d MiB each" % self.memory_per_core
        else:
            what = "%d nodes x (%d cores, %d MiB, %d GPUs)" % (self.nodes, self.cores, self.memory, self.gpus)
        return "Request(%s%s%s)" % (what, " on " + self.partition if self.partition else "",
                                    ", exclusive" if self.exclusive else "")


class Partition:
    """A partition of the platform of nodes: name, nodes (a count), cores,
    memory (MiB) and gpus per node; its node ids are ids, from
    first_node."""

    __slots__ = ("name", "nodes", "cores", "memory", "gpus", "first_node")

    def __init__(self, d):
        self.name = d["name"]
        self.nodes = d["nodes"]
        self.cores = d["cores"]
        self.memory = d["memory"]
        self.gpus = d["gpus"]
        self.first_node = d["first_node"]

    @property
    def ids(self):
        return range(self.first_node, self.first_node + self.nodes)

    def __repr__(self):
        return "Partition(%s: %d nodes x (%d cores, %d MiB, %d GPUs))" % (self.name, self.nodes, self.cores,
                                                                         self.memory, self.gpus)


class Free:
    """Free resources: cores, memory (MiB) and gpus of one node, or summed
    over a partition (then idle counts its entirely free nodes)."""

    __slots__ = ("cores", "memory", "gpus", "idle")

    def __init__(self, cores, memory, gpus, idle=0):
        self.cores = cores
        self.memory = memory
        self.gpus = gpus
        self.idle = idle

    def copy(self):
        return Free(self.cores, self.memory, self.gpus, self.idle)

    def __eq__(self, other):
        return (self.cores, self.memory, self.gpus) == (other.cores, other.memory, other.gpus)

    def __repr__(self):
        return "Free(cores=%d, memory=%d, gpus=%d)" % (self.cores, self.memory, self.gpus)


class Job:
    """A rigid job: id (what you answer with), submit time (s), procs,
    estimate (s: the run time under estimate T, the requested time under
    R), user, start (s, None while it waits), and on a platform of nodes
    its request (a Request; None on processors) and the nodes it started
    on (when the policy named them)."""

    __slots__ = ("id", "submit", "procs", "estimate", "user", "start", "request", "nodes", "shares")

    def __init__(self, id, submit, procs, estimate, user, request=None):
        self.id = id
        self.submit = submit
        self.procs = procs
        self.estimate = estimate
        self.user = user
        self.start = None
        self.request = request
        self.nodes = None
        self.shares = None  # (node, Free) pairs when started on named nodes

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

    On a platform of nodes (protocol 2) also:

      partitions      the partitions (a list of Partition)
      free_nodes      what each node has free now, by node id (a list of
                      Free); None on processors
      partition_free  the free resources of each partition, summed (a
                      list of Free, with idle)

    decide() may then return, for a job, (job, [node ids]) to name its
    nodes, or for a pooled request (job, [node ids], [cores of each]); a
    job returned alone is placed by sweep (first-fit, or the policy's
    nodes param). place() chooses nodes as sweep does, under the policy's
    nodes param (first-fit, the default, or best-fit); fits() tests a job
    against free resources; head_while_fits() and easy() place the same
    way and name the nodes.
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
        self.partitions = []
        self.free_nodes = None
        self.partition_free = []
        self._partition_of = []

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
    def free_copy(self):
        """A copy of free_nodes for place() to take from."""
        return [f.copy() for f in self.free_nodes]

    def place(self, job, free=None):
        """The nodes job would start on now as sweep places it, or None
        if it does not fit: in the first partition it may use that holds
        it, the lowest node ids (first-fit) or, under the policy's param
        nodes=best-fit, the nodes it leaves least free (each resource's
        leftover as a fraction of the node's, summed; ties to the lowest
        id). With free (from free_copy()), what it takes is taken from
        free."""
        taken = self._choose(job, self.free_nodes if free is None else free)
        if taken is None:
            return None
        if free is not None and free is not self.free_nodes:
            _take_from(free, taken)
        return [node for node, _ in taken]

    def _choose(self, job, free, prefer=None):
        """The (node, Free share) pairs job takes of free, or None."""
        for part in self._allowed(job):
            taken = self._take(job, part, free, prefer)
            if taken is not None:
                return taken
        return None

    def fits(self, job, free=None):
        """Whether job fits free resources (free_nodes by default) now."""
        free = self.free_nodes if free is None else free
        return any(self._take(job, p, free) is not None for p in self._allowed(job))

    def _allowed(self, job):
        """The partitions job may use, in platform order."""
        want = job.request.partition
        return [p for p in self.partitions if not want or want == p.name]

    def _take(self, job, part, free, prefer=None):
        """The (node, Free share) pairs job takes of part, first-fit or
        best-fit (the nodes prefer(node) says first, when given), or None."""
        r = job.request
        left = job.procs if r.pooled else r.nodes
        if self.params.get("nodes") == "best-fit":
            ids = self._best_fit_order(r, part, free, left, prefer)
            if ids is None:
                return None
        else:
            ids = part.ids
            if prefer is not None:
                ids = sorted(ids, key=lambda n: (not prefer(n), n))
        taken = []
        for node in ids:
            share = _share(r, part, free[node], left)
            if share is None:
                continue
            taken.append((node, share))
            left -= min(share.cores, left) if r.pooled else 1
            if left == 0:
                return taken
        return None

    def _best_fit_order(self, r, part, free, left, prefer):
        """The nodes of part that hold request r (needing left units), by
        what its share leaves free of each, least first (after the nodes
        prefer says first, when given), or None if they hold too few
        units: engine/backfill's bestFit."""
        ranked, total = [], 0
        for node in part.ids:
            f = free[node]
            share = _share(r, part, f, left)
            if share is None:
                continue
            if r.pooled:
                total += f.cores if r.memory_per_core == 0 else min(f.cores, f.memory // r.memory_per_core)
            else:
                total += 1
            rest = _leftover(f.cores - share.cores, f.memory - share.memory, f.gpus - share.gpus, part)
            ranked.append((prefer is not None and not prefer(node), rest, node))
        if total < left:
            return None
        ranked.sort()
        return [node for _, _, node in ranked]

    def head_while_fits(self, order):
        """The jobs of order, from the head, while each fits (FCFS's rule)."""
        if self.partitions:
            return self._head_while_fits_nodes(order)
        starts, free = [], self.free
        for job in order:
            if job.procs > free:
                break
            free -= job.procs
            starts.append(job)
        return starts

    def _head_while_fits_nodes(self, order):
        starts, free = [], self.free_copy()
        for job in order:
            nodes = self.place(job, free)
            if nodes is None:
                break
            starts.append((job, nodes))
        return starts

    def _easy_nodes(self, order):
        """easy() on a platform of nodes, placing by the nodes param."""
        free = self.free_copy()
        starts, placed = [], []
        for job in order:
            taken = self._choose(job, free)
            if taken is None:
                break
            _take_from(free, taken)
            starts.append(_named(job, taken))
            placed.append((self.now + job.estimate, taken))
        k = len(starts)
        if len(order) - k < 2:
            return starts
        head = order[k]
        ends = []
        for job in self.running.values():
            if job.shares is None:
                raise ValueError("easy() on nodes needs the nodes of every running job: job %d was placed by sweep "
                                 "(start jobs with named nodes: place() or easy())" % job.id)
            ends.append((job.start + job.estimate, job.shares))
        ends += placed
        ends.sort(key=lambda e: e[0])
        future = [f.copy() for f in free]
        held, shadow, i = None, None, 0
        while held is None:  # the head fits once every job has ended
            shadow = ends[i][0]
            while i < len(ends) and ends[i][0] == shadow:
                _give_to(future, ends[i][1])
                i += 1
            # Among the nodes that hold it then, those that cannot hold
            # it now first: the nodes free now are left to backfilling.
            held = self._choose(head, future, lambda n: _share(head.request, self._partition_of[n], free[n], 1) is None)
        spare = {}
        for node, share in held:
            f = future[node]
            spare[node] = Free(f.cores - share.cores, f.memory - share.memory, f.gpus - share.gpus)
        for job in order[k + 1:]:
            long = self.now + job.estimate > shadow
            avail = free
            if long:
                avail = list(free)
                for node, sp in spare.items():
                    f = free[node]
                    avail[node] = Free(min(f.cores, sp.cores), min(f.memory, sp.memory), min(f.gpus, sp.gpus))
            # A job ending by the shadow takes the head's nodes first,
            # leaving the others to the jobs that outlive it.
            taken = self._choose(job, avail, None if long else spare.__contains__)
            if taken is None:
                continue
            _take_from(free, taken)
            if long:
                _take_from(spare, [(n, sh) for n, sh in taken if n in spare])
            starts.append(_named(job, taken))
        return starts

    def easy(self, order):
        """EASY backfilling over order (a list of waiting jobs, highest
        priority first): start from the head while jobs fit; the first
        that does not is promised its shadow time (when enough running
        jobs are estimated to have ended, every job ending then counted);
        a later job starts if it fits now and either ends by the shadow
        or uses only processors the head leaves spare then. This is the
        rule of sweep's built-in fcfs-easy.

        On a platform of nodes it is the built-in's EASY with its node
        selection (the nodes param: first-fit, or best-fit), and names
        the nodes: the shadow is the first estimated end at
        which the head fits (every resource it needs free on nodes it may
        use), the head taking first the nodes that cannot hold it now; a
        job outliving the shadow may use of the head's nodes only what
        the head leaves spare, one ending by it takes the head's nodes
        first. Every running job must have been started on named nodes."""
        if self.partitions:
            return self._easy_nodes(order)
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
        self.partitions = [Partition(p) for p in msg["platform"].get("partitions", [])]
        if self.partitions:
            self._partition_of = [p for p in self.partitions for _ in p.ids]
            self.free_nodes = [Free(p.cores, p.memory, p.gpus) for p in self._partition_of]
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
        nodes = bool(self.partitions)
        for j in msg["submitted"]:
            job = Job(j["id"], j["submit"], j["procs"], j["estimate"], j["user"], Request(j) if nodes else None)
            self.waiting.append(job)
            self.on_submit(job)
        if nodes:
            self._free(msg["partitions"])
        starts = self.decide() or []
        ids = []
        started = set()
        free = self.free_copy() if nodes else None
        for job in starts:
            named = cores = None
            if isinstance(job, tuple):
                job, named, cores = (job + (None,))[:3]
            if not isinstance(job, Job):
                job = next(w for w in self.waiting if w.id == job)
            job.start = self.now
            job.nodes = named
            if named is not None:
                job.shares = self._shares_on(job, named, cores, free)
                _take_from(free, job.shares)
            running[job.id] = job
            started.add(job.id)
            if named is None:
                ids.append(job.id)
            elif cores is None:
                ids.append({"id": job.id, "nodes": list(named)})
            else:
                ids.append({"id": job.id, "nodes": list(named), "cores": list(cores)})
        if started:
            self.waiting = [w for w in self.waiting if w.id not in started]
        return {"start": ids}

    def _shares_on(self, job, nodes, cores, free):
        """What job takes of the named nodes (and cores), given free
        (sweep's rule)."""
        r = job.request
        left = job.procs
        out = []
        for k, node in enumerate(nodes):
            part, f = self._partition_of[node], free[node]
            if r.exclusive:
                share = Free(part.cores, part.memory, part.gpus)
            elif r.pooled:
                units = f.cores if r.memory_per_core == 0 else min(f.cores, f.memory // r.memory_per_core)
                n = min(units, left) if cores is None else cores[k]
                left -= n
                share = Free(n, n * r.memory_per_core, 0)
            else:
                share = Free(r.cores, r.memory, r.gpus)
            out.append((node, share))
        return out

    def _free(self, partitions):
        """Reads decide's free resources per partition: sums, idle nodes
        and [node, cores, memory, gpus] for each node not entirely free."""
        self.partition_free = []
        free = self.free_nodes
        for part, f in zip(self.partitions, partitions):
            self.partition_free.append(Free(f["cores"], f["memory"], f["gpus"], f["idle"]))
            for node in part.ids:
                n = free[node]
                n.cores, n.memory, n.gpus = part.cores, part.memory, part.gpus
            for node, cores, memory, gpus in f["busy"]:
                n = free[node]
                n.cores, n.memory, n.gpus = cores, memory, gpus


def _named(job, taken):
    """A start on the nodes of taken: (job, nodes), and the cores of each
    for a pooled request, which may take fewer than a node offers."""
    nodes = [n for n, _ in taken]
    if job.request.pooled and not job.request.exclusive:
        return (job, nodes, [sh.cores for _, sh in taken])
    return (job, nodes)


def _share(r, part, f, left):
    """What request r, still needing left nodes (or pooled cores), takes
    of a node of part with f free, or None if it cannot use the node."""
    if r.exclusive:
        if f.cores == part.cores and f.memory == part.memory and f.gpus == part.gpus:
            return Free(part.cores, part.memory, part.gpus)
        return None
    if r.pooled:
        units = f.cores if r.memory_per_core == 0 else min(f.cores, f.memory // r.memory_per_core)
        if units <= 0:
            return None
        n = min(units, left)
        return Free(n, n * r.memory_per_core, 0)
    if f.cores < r.cores or f.memory < r.memory or f.gpus < r.gpus:
        return None
    return Free(r.cores, r.memory, r.gpus)


def _leftover(cores, memory, gpus, part):
    """best-fit's score of a node of part left with these free: each
    resource as a fraction of the node's, summed (in engine/backfill's
    order, so that the floats are the same)."""
    f = cores / part.cores
    if part.gpus > 0:
        f += gpus / part.gpus
    if part.memory > 0:
        f += memory / part.memory
    return f


def _take_from(free, shares):
    for node, s in shares:
        f = free[node]
        f.cores, f.memory, f.gpus = f.cores - s.cores, f.memory - s.memory, f.gpus - s.gpus


def _give_to(free, shares):
    for node, s in shares:
        f = free[node]
        f.cores, f.memory, f.gpus = f.cores + s.cores, f.memory + s.memory, f.gpus + s.gpus


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
            version = msg["protocol"]
            if version not in PROTOCOL_VERSIONS:
                sys.stderr.write("sweep_policy speaks protocols %s, sweep sent %d\n" % (PROTOCOL_VERSIONS, version))
                version = PROTOCOL_VERSION
            if msg["model"] != policy.model:
                raise ValueError("this policy is for the %s model; sweep runs it on a %s workload: this policy is not for that model"
                                 % (policy.model, msg["model"]))
            policy._hello(msg)
            reply = {"type": "hello", "protocol": version}
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
