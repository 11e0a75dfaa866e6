"""agent.py MODEL runs a model saved by train.py as a policy of a manifest.

judge.yaml lists it as a command entry with params {protocol: gym, ...}
(docs/gym.md, "From training to a paper table"): sweep sends the setup line
and, per decision, the frame the environment would send; the agent answers
the slot it picks, greedily (deterministic=True) among the unmasked slots,
exactly as evaluation through the environment would.
"""

import os
import sys

import torch
from sb3_contrib import MaskablePPO
from sweep_policy.gym import serve_agent

import kernel  # noqa: F401 (the agent's policy class, for MaskablePPO.load)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: agent.py MODEL (a model.zip written by train.py)")
    torch.set_num_threads(1)
    model = MaskablePPO.load(sys.argv[1], device="cpu")
    serve_agent(lambda obs, mask, info: int(model.predict(obs, action_masks=mask, deterministic=True)[0]))
    # sweep closed the input: the cell is over. Exit at once: sweep kills a
    # policy still running 2 s after the end, and the interpreter's teardown
    # with torch loaded took longer than that in 13 of 30 cells at load 8.
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
