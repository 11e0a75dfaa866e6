"""obspolicy holds the fixed policies that read RLScheduler's observation.

The rlscheduler preset's observation is RLScheduler's (HPCSimPickJobs.py's
build_observation): 128 slots x 8 features, feature 1 the requested time
divided by the workload's longest run time (capped at 1 - 1e-5), an empty slot
[0, 1, 1, 1, 1, 1, 1, 0]. bench_env.py, evaluate.py and train.py use these on
both environments, so a policy's cost and choices are the same everywhere.
"""

import numpy as np

QUEUE_SLOTS = 128
JOB_FEATURES = 8
REQUEST = 1  # the feature index of the normalised requested time


def shortest_request(obs, mask=None):
    """The slot of the visible job with the shortest requested time.

    This is sjf's choice: with more than 128 waiting jobs the observation
    still shows the 128 first of the shortest-request order (RLScheduler
    interleaves them with others), and argmin keeps the first slot of a tie,
    the earlier submit. Without a mask an empty slot's 1 loses to any job's
    value (at most 1 - 1e-5)."""
    request = np.asarray(obs).reshape(QUEUE_SLOTS, JOB_FEATURES)[:, REQUEST]
    if mask is not None:
        request = np.where(mask, request, np.inf)
    return int(np.argmin(request))


def slot0(obs, mask=None):
    """Slot 0: the oldest waiting job while at most 128 wait."""
    return 0


POLICIES = {"sjf": shortest_request, "slot0": slot0}
