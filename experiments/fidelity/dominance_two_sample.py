"""Seed 004, Tables 3 and 4: our dominance against the paper's as two estimates.

`sweep analyze` marks a cell as agreeing when the paper's percentage lies in the
Wilson 95% interval of ours. The paper's percentage is itself an estimate from
its own 150 pairs (5 kinds x 30 instances), so the comparison of two estimates
needs the interval of their difference: Newcombe's hybrid score interval
(Newcombe 1998, Stat. Med. 17:873, method 10), built from the two Wilson
intervals. A cell agrees when that interval holds 0. Reads the dominance table
of a results directory (needs duckdb: pip install -r experiments/fidelity/requirements.txt):

    python3 experiments/fidelity/dominance_two_sample.py results/burkimsher2013
"""
import math
import sys

import duckdb

PAPER = {  # experiments/burkimsher2013.yaml, expect.dominance
    "slr_max": {
        "lrtf": [96, 100, 100, 100, 100], "srtf": [54, 47, 56, 58, 57],
        "random": [87, 93, 100, 93.3, 100], "fifo-task": [87, 98, 100, 100, 100],
        "fifo-job": [92, 94, 100, 100, 100], "fairshare": [87, 95, 98.6, 100, 99.3]},
    "slr_mean": {
        "lrtf": [97, 100, 100, 100, 100], "srtf": [59, 54, 44, 26, 21],
        "random": [88, 97, 100, 100, 100], "fifo-task": [91, 98.3, 100, 100, 100],
        "fifo-job": [94, 97, 100, 100, 100], "fairshare": [92, 98.6, 100, 100, 99.3]},
}
LOADS = [0.8, 0.9, 1.0, 1.1, 1.2]
PAPER_PAIRS = 150
Z = 1.959963984540054


def wilson(p, n):
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def newcombe(p1, n1, p2, n2):
    l1, u1 = wilson(p1, n1)
    l2, u2 = wilson(p2, n2)
    d = p1 - p2
    return d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def compare(results_dir):
    """Yields (metric, policy, load, ours %, Wilson low, high, paper %, Newcombe low, high) per cell."""
    rows = duckdb.sql(f"""select metric, policy, load, n, dominance_pct
        from '{results_dir}/analysis/dominance.parquet'
        where metric in ('slr_max', 'slr_mean') and load is not null""").fetchall()
    for metric, policy, load, pairs, pct in sorted(rows):
        paper = PAPER[metric].get(policy)
        if paper is None:
            continue
        want = paper[LOADS.index(load)] / 100
        lo, hi = wilson(pct / 100, pairs)
        dlo, dhi = newcombe(pct / 100, pairs, want, PAPER_PAIRS)
        yield metric, policy, load, pct, 100 * lo, 100 * hi, 100 * want, 100 * dlo, 100 * dhi


def main():
    inside_one = inside_two = cells = 0
    for metric, policy, load, pct, lo, hi, want, dlo, dhi in compare(sys.argv[1]):
        cells += 1
        one = lo <= want <= hi
        two = dlo <= 0 <= dhi
        inside_one += one
        inside_two += two
        if not (one and two):
            print(f"{metric:8} {policy:9} {load}: ours {pct:5.1f} (Wilson {lo:.1f}-{hi:.1f}), paper {want:5.1f}; "
                  f"difference {pct - want:+.1f}, Newcombe 95% {dlo:+.1f} to {dhi:+.1f}: "
                  f"{'agrees' if two else 'differs'} as two estimates")
    print(f"paper inside our Wilson interval: {inside_one} of {cells} cells; difference interval holds 0: {inside_two} of {cells}")


if __name__ == "__main__":
    main()
