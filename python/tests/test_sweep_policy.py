"""Tests of the Python client, message by message, on hand-computed
schedules (the fixture of policy/pipe's Go tests)."""
import io
import json
import os
import subprocess
import sys

import pytest

from sweep_policy import DAGPolicy, RigidPolicy, run

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
