"""Shortest job first (by estimate, then submit order) with EASY backfilling.

params: {order: estimate | area} ranks by estimate (default) or by
estimate x processors.
"""
from sweep_policy import RigidPolicy, run


class SJFEasy(RigidPolicy):
    def on_hello(self, hello):
        by = self.params.get("order", "estimate")
        if by == "estimate":
            self.key = lambda j: (j.estimate, j.submit, j.id)
        elif by == "area":
            self.key = lambda j: (j.estimate * j.procs, j.submit, j.id)
        else:
            raise ValueError("params.order %r: want estimate or area" % by)

    def decide(self):
        return self.easy(sorted(self.waiting, key=self.key))


if __name__ == "__main__":
    run(SJFEasy())
