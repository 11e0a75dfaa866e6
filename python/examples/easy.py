"""FCFS with EASY backfilling: the built-in fcfs-easy, in Python."""
from sweep_policy import RigidPolicy, run


class EASY(RigidPolicy):
    def decide(self):
        return self.easy(self.waiting)


if __name__ == "__main__":
    run(EASY())
