"""Recomputes, independently of sweep, the log's campaign stretches on LPC-EGEE (seed 000).

Reads the SWF file directly (standard library only), keeps the jobs submitted in
[2004-12-06, 2005-01-25) of the log's time zone (Europe/Paris) that ran more than 0 s,
detects campaigns per user by the MAX rule (a job joins its user's current batch when it
is submitted strictly before every job of the batch has finished in the log) and prints
the stretch figures of the recorded schedule with the study's denominator
max(W/m, pmax), m = 140; also with the non-strict rule (<=) for contrast. `sweep analyze`
of experiments/ostrich2013-lpc-egee.yaml prints the same figures for `log`
(docs/fidelity.md#seed-000-lpc-egee):

    python3 experiments/fidelity/lpc_egee_log_stretch.py ../shared/traces/LPC-EGEE-2004-1.2-cln.swf.gz
"""
import datetime
import gzip
import statistics
import sys
import zoneinfo

MACHINES = 140

tz = zoneinfo.ZoneInfo("Europe/Paris")
start, jobs = None, []
for line in gzip.open(sys.argv[1], "rt"):
    if line.startswith(";"):
        if "UnixStartTime" in line:
            start = int(line.split(":")[1].split()[0])
        continue
    f = line.split()
    if len(f) >= 18:
        # number, submit, wait, run, user
        jobs.append((int(f[0]), int(f[1]), int(f[2]), int(f[3]), int(f[11])))
lo = int(datetime.datetime(2004, 12, 6, tzinfo=tz).timestamp()) - start
hi = int(datetime.datetime(2005, 1, 25, tzinfo=tz).timestamp()) - start
kept = sorted((j for j in jobs if lo <= j[1] < hi and j[3] > 0), key=lambda j: (j[1], j[0]))
print(f"{len(kept)} jobs, {len({j[4] for j in kept})} users")
for strict in (True, False):
    current, campaigns = {}, []
    for number, submit, wait, run, user in kept:
        finish = submit + max(wait, 0) + run
        c = current.get(user)
        if c is not None and (submit < c["end"] if strict else submit <= c["end"]):
            c["runs"].append(run)
            c["end"] = max(c["end"], finish)
        else:
            current[user] = c = {"submit": submit, "end": finish, "runs": [run]}
            campaigns.append(c)
    stretch = [(c["end"] - c["submit"]) / max(sum(c["runs"]) / MACHINES, max(c["runs"])) for c in campaigns]
    trimmed = sorted(s for s in stretch if s <= 1000)
    quantile = statistics.quantiles(trimmed, n=100, method="inclusive")  # numpy's default (type 7)
    print(f"MAX rule {'<' if strict else '<='}: {len(campaigns)} campaigns; stretch <= 1000: mean "
          f"{statistics.fmean(trimmed):.4g}, exactly 1 {sum(s == 1 for s in trimmed) / len(trimmed):.4g}, "
          f"p50 {quantile[49]:.4g}, p90 {quantile[89]:.4g}, p99 {quantile[98]:.4g}; "
          f"above 1000 {1 - len(trimmed) / len(stretch):.4g}")
