"""Smallest job first for DAG jobs: a job's priority is its volume
(core-ticks), so the tasks of smaller jobs run first. Its Go twin is
examples/ownpolicy's small-first."""
from sweep_policy import DAGPolicy, run


class SmallFirst(DAGPolicy):
    def priority(self, job):
        return job.volume


if __name__ == "__main__":
    run(SmallFirst())
