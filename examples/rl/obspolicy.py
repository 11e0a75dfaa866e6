"""obspolicy holds the fixed policies that read an observation of sweep/Rigid-v0.

An observation is K slots x 8 features, flat; the feature that holds a job's
requested time is `estimate` under the `sweep` preset and `request` under
`rlscheduler` (RLScheduler's layout, where an empty slot shows 1 there and a
job at most 1 - 1e-5). bench_env.py and train.py use these, so a policy's cost
and choices are the same on both environments.
"""

import numpy as np

JOB_FEATURES = 8
REQUEST_COLUMN = {"sweep": 2, "rlscheduler": 1}


def shortest_request(obs, mask=None, column=REQUEST_COLUMN["rlscheduler"]):
    """The slot of the visible job with the shortest requested time.

    Under `rlscheduler` this is sjf's choice (head committed): RLScheduler's
    observation shows the 128 first of the shortest-request order among
    others when more than 128 wait. Under `sweep` it is the shortest of the K
    first waiting jobs in submit order, sjf's choice only while at most K
    wait. argmin keeps the first slot of a tie, the earlier submit."""
    request = np.asarray(obs).reshape(-1, JOB_FEATURES)[:, column]
    if mask is not None:
        request = np.where(mask, request, np.inf)
    return int(np.argmin(request))


def slot0(obs, mask=None):
    """Slot 0: the oldest waiting job (under rlscheduler while at most 128 wait)."""
    return 0


POLICIES = {"sjf": shortest_request, "slot0": slot0}
