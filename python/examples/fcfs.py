"""FCFS: start waiting jobs in submit order while the head fits."""
from sweep_policy import RigidPolicy, run


class FCFS(RigidPolicy):
    def decide(self):
        return self.head_while_fits(self.waiting)


if __name__ == "__main__":
    run(FCFS())
