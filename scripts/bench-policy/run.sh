#!/bin/sh
# The whole KTH-SP2 trace (28,467 jobs, variant R, no month window) under
# the built-in fcfs-easy, the Python EASY example over the pipe protocol,
# and AccaSim's EASYBackfilling on the same jobs, whole process, back to
# back, with the load average before each. Run from the repository root:
#   scripts/bench-policy/run.sh [KTH trace] [python3]
set -e
KTH=${1:-$PWD/../shared/traces/KTH-SP2-1996-2.1-cln.swf.gz}
PY=${2:-$(python3 -c 'import sys; print(sys.executable)')}
export KTH PYTHONPATH=$PWD/python
work=$(mktemp -d)
(cd scripts/bench-policy && go build -o "$work/kthbench" .)
[ -x "$work/venv/bin/python" ] || { "$PY" -m venv "$work/venv" && "$work/venv/bin/pip" install -q -r scripts/bench-policy/requirements-accasim.txt; }
# AccaSim needs a memory request per job: 1 unit on nodes of 1.
"$work/kthbench" dump | awk '/^;/ {print; next} {$7=1; $10=1; print}' > "$work/kth.swf"
cat /proc/loadavg; /usr/bin/time -f "builtin fcfs-easy: %e s wall, %U+%S s cpu" "$work/kthbench" builtin
cat /proc/loadavg; /usr/bin/time -f "python EASY (pipe): %e s wall, %U+%S s cpu" "$work/kthbench" "$PY" python/examples/easy.py
cat /proc/loadavg; (cd "$work" && /usr/bin/time -f "AccaSim EASYBackfilling: %e s wall, %U+%S s cpu" "$work/venv/bin/python" "$OLDPWD/scripts/bench-policy/accasim_easy.py" kth.swf 2>&1 | grep -E "AccaSim|Avg. waiting")
cat /proc/loadavg
rm -rf "$work"
