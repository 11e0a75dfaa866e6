"""Tests of the Python client, message by message, on hand-computed
schedules (the fixture of policy/pipe's Go tests)."""
import io
import json
import os
import subprocess
import sys

import pytest

from sweep_policy import DAGPolicy, Job, RigidPolicy, Request, run

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "examples")
sys.path.insert(0, EXAMPLES)

from easy import EASY  # noqa: E402
from fcfs import FCFS  # noqa: E402
from sjf_easy import SJFEasy  # noqa: E402
from dag_small_first import SmallFirst  # noqa: E402


def hello(procs=4, params=None, estimate="T"):
    return {"type": "hello", "protocol": 1, "model": "rigid", "policy": "p", "params": params or {},
            "platform": {"procs": procs}, "workload": {"name": "w", "jobs": 4, "estimate": estimate}}


def job(id, submit, procs, estimate, user=1):
    return {"id": id, "submit": submit, "procs": procs, "estimate": estimate, "user": user}


def converse(policy, messages):
    """Runs policy on messages and returns its replies."""
    out = io.StringIO()
    data = "".join(json.dumps(m) + "\n" for m in messages).encode()
    run(policy, io.BytesIO(data), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


# The fixture on 4 processors: job 0 (2 procs, 10 s) at 0 s; at 1 s job 1
# (4 procs, 5 s) and job 2 (1 proc, 2 s); job 3 (2 procs, 20 s) at 2 s.
FIXTURE = [
    hello(),
    {"type": "decide", "now": 0, "free": 4, "finished": [], "submitted": [job(0, 0, 2, 10)]},
    {"type": "decide", "now": 1, "free": 2, "finished": [], "submitted": [job(1, 1, 4, 5), job(2, 1, 1, 2)]},
    {"type": "end", "now": 1},
]


def test_easy_backfills_beside_the_reservation():
    # Job 1 waits for job 0 (shadow 10 s, no spare processor then); job 2
    # ends at 3 s <= 10 s, so it is backfilled at 1 s.
    replies = converse(EASY(), FIXTURE)
    assert replies == [{"type": "hello", "protocol": 1}, {"start": [0]}, {"start": [2]}]


def test_fcfs_stops_at_the_head():
    replies = converse(FCFS(), FIXTURE)
    assert replies[1:] == [{"start": [0]}, {"start": []}]


def test_easy_does_not_delay_the_head():
    # A 1-proc job of 20 s ends after the shadow (10 s) and the head leaves
    # no spare processor: it may not start.
    msgs = FIXTURE[:2] + [
        {"type": "decide", "now": 1, "free": 2, "finished": [], "submitted": [job(1, 1, 4, 5), job(2, 1, 1, 20)]}]
    assert converse(EASY(), msgs)[1:] == [{"start": [0]}, {"start": []}]


def test_easy_extra_processors():
    # 6 processors: job 0 holds 4 until 10 s; the head (job 1, 4 procs)
    # leaves 2 spare at the shadow, so the 20 s job of 2 procs starts.
    msgs = [hello(procs=6),
            {"type": "decide", "now": 0, "free": 6, "finished": [], "submitted": [job(0, 0, 4, 10)]},
            {"type": "decide", "now": 1, "free": 2, "finished": [], "submitted": [job(1, 1, 4, 5), job(2, 1, 2, 20)]}]
    assert converse(EASY(), msgs)[1:] == [{"start": [0]}, {"start": [2]}]


def test_sjf_orders_by_estimate_then_area():
    msgs = [hello(procs=4),
            {"type": "decide", "now": 0, "free": 4, "finished": [],
             "submitted": [job(0, 0, 3, 30), job(1, 0, 1, 20), job(2, 0, 2, 10)]}]
    # By estimate: job 2 (10 s), job 1 (20 s) fit; job 0 (3 procs) waits.
    assert converse(SJFEasy(), msgs)[1] == {"start": [2, 1]}
    # By area: job 1 (20), job 2 (20, later id) ... job 1 first.
    msgs[0] = hello(procs=4, params={"order": "area"})
    assert converse(SJFEasy(), msgs)[1] == {"start": [1, 2]}


def test_finished_jobs_leave_running():
    p = EASY()
    converse(p, FIXTURE[:3] + [{"type": "decide", "now": 10, "free": 3, "finished": [0], "submitted": []}])
    # Job 0 ended; job 2 runs; job 1 (4 procs) waits with 3 free.
    assert sorted(p.running) == [2]
    assert [j.id for j in p.waiting] == [1]


def test_dag_priority_is_volume():
    msgs = [{"type": "hello", "protocol": 1, "model": "dag", "policy": "s", "params": {},
             "platform": {"clusters": [{"name": "c1", "kind": "Kind1", "cores": 4}]}, "workload": {"jobs": 2, "tasks": 5}},
            {"type": "jobs", "now": 7, "jobs": [
                {"id": 0, "name": "a", "arrival": 7, "tasks": 3, "volume": 90, "critical_path": 30},
                {"id": 1, "name": "b", "arrival": 7, "tasks": 2, "volume": 12, "critical_path": 6}]}]
    assert converse(SmallFirst(), msgs)[1] == {"priority": [90, 12]}


def test_a_policy_for_another_model_says_so():
    with pytest.raises(ValueError, match="not for that model"):
        converse(SmallFirst(), FIXTURE)


def test_example_runs_as_a_process():
    # The examples are scripts sweep starts: stdin to stdout, one line each.
    env = dict(os.environ, PYTHONPATH=os.path.join(HERE, ".."))
    data = "".join(json.dumps(m) + "\n" for m in FIXTURE)
    out = subprocess.run([sys.executable, os.path.join(EXAMPLES, "easy.py")], input=data, capture_output=True,
                         text=True, env=env, check=True).stdout
    assert out.splitlines() == ['{"type":"hello","protocol":1}', '{"start":[0]}', '{"start":[2]}']


# Protocol 2: issue 34's cpu+gpu platform (nodes 0 and 1 in cpu, 4 cores
# and 8 GiB each; node 2 in gpu, 8 cores, 64 GiB, 4 GPUs) and five jobs at
# 0 s, the ones of policy/pipe's TestPythonNodesFCFS (run = estimate):
# J0 gpu 1 node x (4 cores, 16 GiB, 2 GPUs) 20 s; J1 gpu 1 x (2, 8 GiB, 3)
# 10 s; J2 cpu 2 x (2, 4 GiB) 30 s; J3 6 pooled cores, 1 GiB each, any
# partition, 50 s; J4 gpu 1 x (1, 1 GiB, 1) 5 s.
from nodes_fcfs import NodesFCFS  # noqa: E402

CPU_GPU = {"procs": 16, "partitions": [
    {"name": "cpu", "nodes": 2, "cores": 4, "memory": 8192, "gpus": 0, "first_node": 0},
    {"name": "gpu", "nodes": 1, "cores": 8, "memory": 65536, "gpus": 4, "first_node": 2}]}


def hello2(params=None):
    return {"type": "hello", "protocol": 2, "model": "rigid", "policy": "p", "params": params or {},
            "platform": CPU_GPU, "workload": {"name": "cpu-gpu", "jobs": 5, "estimate": "T"}}


def njob(id, procs, estimate, nodes, cores, memory, gpus, partition, memory_per_core=0):
    return {"id": id, "submit": 0, "procs": procs, "estimate": estimate, "user": 1, "nodes": nodes, "cores": cores,
            "memory": memory, "gpus": gpus, "memory_per_core": memory_per_core, "partition": partition,
            "exclusive": False}


NJOBS = [njob(0, 4, 20, 1, 4, 16384, 2, "gpu"), njob(1, 2, 10, 1, 2, 8192, 3, "gpu"),
         njob(2, 4, 30, 2, 2, 4096, 0, "cpu"), njob(3, 6, 50, 0, 0, 0, 0, "", memory_per_core=1024),
         njob(4, 1, 5, 1, 1, 1024, 1, "gpu")]
IDLE = [{"cores": 8, "memory": 16384, "gpus": 0, "idle": 2, "busy": []},
        {"cores": 8, "memory": 65536, "gpus": 4, "idle": 1, "busy": []}]


def decide2(now, free, finished, submitted, partitions):
    return {"type": "decide", "now": now, "free": free, "finished": finished, "submitted": submitted,
            "partitions": partitions}


def test_nodes_fcfs_by_hand():
    # At 0 J0 takes node 2 and J1 (3 GPUs, 2 free) blocks. At 20 J0 has
    # ended: J1 on node 2, J2 on nodes 0 and 1, J3's 6 cores on node 2 (the
    # CPU nodes have 2 each left); J4 finds node 2's cores taken. At 30 J1
    # has ended: node 2 has 2 cores, 59,392 MiB and 4 GPUs free: J4 there.
    at30 = [{"cores": 4, "memory": 8192, "gpus": 0, "idle": 0, "busy": [[0, 2, 4096, 0], [1, 2, 4096, 0]]},
            {"cores": 2, "memory": 59392, "gpus": 4, "idle": 0, "busy": [[2, 2, 59392, 4]]}]
    msgs = [hello2(), decide2(0, 16, [], NJOBS, IDLE), decide2(20, 16, [0], [], IDLE), decide2(30, 6, [1], [], at30),
            {"type": "end", "now": 30}]
    assert converse(NodesFCFS(), msgs) == [
        {"type": "hello", "protocol": 2},
        {"start": [{"id": 0, "nodes": [2]}]},
        {"start": [{"id": 1, "nodes": [2]}, {"id": 2, "nodes": [0, 1]}, {"id": 3, "nodes": [2]}]},
        {"start": [{"id": 4, "nodes": [2]}]}]


def test_nodes_greedy_by_hand_and_sweep_places():
    # Greedy: at 0 J0 on node 2, J2 on nodes 0 and 1, J4 on node 2 (J1's
    # GPUs and J3's cores are short); at 5 (J4 ended) node 2 has 4 cores
    # and 2 GPUs: nothing fits; at 20 J1 and J3 on node 2. With place=sweep
    # the same jobs, unnamed.
    at5 = [{"cores": 4, "memory": 8192, "gpus": 0, "idle": 0, "busy": [[0, 2, 4096, 0], [1, 2, 4096, 0]]},
           {"cores": 4, "memory": 49152, "gpus": 2, "idle": 0, "busy": [[2, 4, 49152, 2]]}]
    at20 = [at5[0], IDLE[1]]
    msgs = [hello2({"backfill": "greedy"}), decide2(0, 16, [], NJOBS, IDLE), decide2(5, 8, [4], [], at5),
            decide2(20, 12, [0], [], at20)]
    assert converse(NodesFCFS(), msgs)[1:] == [
        {"start": [{"id": 0, "nodes": [2]}, {"id": 2, "nodes": [0, 1]}, {"id": 4, "nodes": [2]}]},
        {"start": []},
        {"start": [{"id": 1, "nodes": [2]}, {"id": 3, "nodes": [2]}]}]
    msgs[0] = hello2({"backfill": "greedy", "place": "sweep"})
    assert converse(NodesFCFS(), msgs)[1:] == [{"start": [0, 2, 4]}, {"start": []}, {"start": [1, 3]}]


def test_nodes_state_and_fit():
    # The client's view at 5 s of the greedy schedule: requests, free
    # resources per node and per partition, and fits()/place().
    seen = {}

    class Look(RigidPolicy):
        def decide(self):
            if self.now == 5:
                byid = {j.id: j for j in self.waiting}
                seen["request"] = repr(byid[3].request)
                seen["pooled"] = byid[3].request.pooled
                seen["free"] = [repr(f) for f in self.free_nodes]
                seen["idle"] = [p.idle for p in self.partition_free]
                seen["fits"] = {j: self.fits(byid[j]) for j in byid}
                smaller = Job(9, 5, 4, 1, 1, Request(njob(9, 4, 1, 0, 0, 0, 0, "", memory_per_core=1024)))
                seen["pooled 4"] = self.place(smaller)
                return []
            return [0, 2, 4] if self.now == 0 else []

    at5 = [{"cores": 4, "memory": 8192, "gpus": 0, "idle": 0, "busy": [[0, 2, 4096, 0], [1, 2, 4096, 0]]},
           {"cores": 4, "memory": 49152, "gpus": 2, "idle": 0, "busy": [[2, 4, 49152, 2]]}]
    converse(Look(), [hello2(), decide2(0, 16, [], NJOBS, IDLE), decide2(5, 8, [4], [], at5)])
    assert seen == {
        "request": "Request(pooled cores, 1024 MiB each)", "pooled": True,
        "free": ["Free(cores=2, memory=4096, gpus=0)", "Free(cores=2, memory=4096, gpus=0)",
                 "Free(cores=4, memory=49152, gpus=2)"],
        "idle": [0, 0], "fits": {1: False, 3: False},
        # 4 pooled cores: 2 on node 0 and 2 on node 1, the first partition.
        "pooled 4": [0, 1]}


def test_easy_on_nodes_by_hand():
    # engine/backfill's "gpu easy" case on the cpu+gpu platform, all at 0
    # s: G0 (gpu, 4 cores, 16 GiB, 2 GPUs, 20 s) takes node 2; G1 (3 GPUs)
    # blocks and is promised node 2 at 20 s, which leaves 6 cores, 56 GiB
    # and 1 GPU spare. C0 (both CPU nodes, 30 s) backfills off the head's
    # node; X (any partition, 2 cores, 50 s) finds the CPU nodes full and
    # takes 2 of node 2's spare cores; Y (1 GPU, 5 s, ends by the shadow)
    # a free GPU; Z (1 GPU, 100 s) the one spare GPU.
    jobs = [njob(0, 4, 20, 1, 4, 16384, 2, "gpu"), njob(1, 2, 10, 1, 2, 8192, 3, "gpu"),
            njob(2, 8, 30, 2, 4, 4096, 0, "cpu"), njob(3, 2, 50, 1, 2, 0, 0, ""),
            njob(4, 1, 5, 1, 1, 1024, 1, "gpu"), njob(5, 1, 100, 1, 1, 1024, 1, "gpu")]
    assert converse(EASY(), [hello2(), decide2(0, 16, [], jobs, IDLE)])[1:] == [
        {"start": [{"id": 0, "nodes": [2]}, {"id": 2, "nodes": [0, 1]}, {"id": 3, "nodes": [2]},
                   {"id": 4, "nodes": [2]}, {"id": 5, "nodes": [2]}]}]
