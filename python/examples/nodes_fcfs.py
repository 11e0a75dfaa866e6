"""FCFS on a platform of nodes (protocol 2): waiting jobs in submit order
start while the head fits, each on the nodes the client's first-fit
place() names. Params: backfill=greedy also starts every later job that
fits (no reservation: the head may be delayed); place=sweep names no
nodes and lets sweep place the jobs (first-fit: the same nodes)."""
from sweep_policy import RigidPolicy, run


class NodesFCFS(RigidPolicy):
    def decide(self):
        greedy = self.params.get("backfill") == "greedy"
        free = self.free_copy()
        starts = []
        for job in self.waiting:
            nodes = self.place(job, free)
            if nodes is None:
                if greedy:
                    continue
                break
            starts.append(job.id if self.params.get("place") == "sweep" else (job, nodes))
        return starts


if __name__ == "__main__":
    run(NodesFCFS())
