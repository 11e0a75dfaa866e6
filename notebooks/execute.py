"""execute.py NOTEBOOK... : runs each notebook headless with nbclient, in
this folder (so `import sweepnb` works), and fails on the first cell that
raises, printing the cell and its error. The notebooks find their results
directory in $SWEEP_RESULTS. With $NOTEBOOK_OUT set, the executed copies
(with outputs) are written there."""

import os
import re
import sys
import time
from pathlib import Path

import nbclient
import nbformat

HERE = Path(__file__).resolve().parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def main(paths):
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        start = time.monotonic()
        client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                         resources={"metadata": {"path": str(HERE)}})
        try:
            client.execute()
        except nbclient.exceptions.CellExecutionError as e:
            print(f"{path}: a cell failed:\n{ANSI.sub('', str(e))}", file=sys.stderr)
            return 1
        finally:
            out = os.environ.get("NOTEBOOK_OUT")
            if out:
                nbformat.write(nb, Path(out) / Path(path).name)
        headline = [o.text for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                    if o.output_type == "stream" and "headline" in o.text]
        print(f"{path}: ran in {time.monotonic() - start:.1f} s; " +
              (" ".join(line.strip() for h in headline for line in h.splitlines() if "headline" in line) or "no headline line"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
