"""Where a notebook finds a sweep run, and `sweep analyze`'s side of it.

The notebooks of this folder read the Parquet tables of a results directory
themselves; this module only locates the directory and the sweep binary,
runs `sweep analyze` when its tables are missing (or for its printed text),
and reads the category order a run states (see the README, "Categories in
the manifest's order").
"""

import json
import os
import subprocess
from pathlib import Path

import pyarrow.parquet as pq

HERE = Path(__file__).resolve().parent


def results_dir(experiment):
    """The results directory of experiment: $SWEEP_RESULTS, else
    results/<experiment> of this checkout (where `sweep run` puts it)."""
    d = Path(os.environ.get("SWEEP_RESULTS") or HERE.parent / "results" / experiment)
    if not (d / "cells").is_dir():
        raise FileNotFoundError(
            f"{d}/cells is missing: run `bin/sweep run experiments/{experiment}.yaml` first, "
            "or point SWEEP_RESULTS at a results directory")
    return d


def sweep_bin():
    """The sweep binary: $SWEEP_BIN, else bin/sweep of this checkout."""
    return os.environ.get("SWEEP_BIN") or str(HERE.parent / "bin" / "sweep")


def analyze(d, force=False):
    """Runs `sweep analyze d` when d/analysis is missing (or force) and
    returns what it printed ("" when it did not run)."""
    if (d / "analysis").is_dir() and not force:
        return ""
    done = subprocess.run([sweep_bin(), "analyze", str(d)], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"sweep analyze {d} exited {done.returncode}:\n{done.stderr}")
    return done.stdout


def categories(d, table="cells"):
    """The categories the table's string columns state, by column, in the
    manifest's order: the metadata key sweep.categories of a part file."""
    part = next(p for p in sorted((d / table).glob("*.parquet")))
    meta = pq.read_schema(part).metadata or {}
    return json.loads(meta.get(b"sweep.categories", b"{}"))
