"""Mean relative error of seed 003's total |dev| against the paper (Tables VI/VII).

Reads the text `sweep analyze` prints for a fair-share run and, per workload and
column (RelShare T, R; Tradeoff-fs T, R), prints the mean over months of
|ours - paper| / paper for the running sums the paper prints and for the month
values (the paper's month value is the difference of its running sums).

    python3 experiments/fidelity/dev_error.py /tmp/fid/sdsc-months-default.txt
"""
import re
import sys


def mean(xs):
    return 100 * sum(xs) / len(xs)


for path in sys.argv[1:]:
    text = open(path).read()
    for workload in ("kth", "sdsc"):
        m = re.search(workload + r", Tables VI/VII.*?\n(.*?)\n\n", text, re.S)
        if not m:
            continue
        running = [[] for _ in range(4)]
        monthly = [[] for _ in range(4)]
        previous = [0] * 4
        for line in m.group(1).split("\n")[1:]:
            for k, (month, run, paper) in enumerate(re.findall(r"(\d+), (\d+) / (\d+)", line)[:4]):
                running[k].append(abs(int(run) - int(paper)) / int(paper))
                paper_month = int(paper) - previous[k]
                previous[k] = int(paper)
                monthly[k].append(abs(int(month) - paper_month) / paper_month)
        print(f"{path} {workload}: mean relative error % (RelShare T, R, Tradeoff-fs T, R)")
        print("  running sums:", " ".join(f"{mean(e):.1f}" for e in running))
        print("  month values:", " ".join(f"{mean(e):.1f}" for e in monthly),
              f"(all: {mean([x for e in monthly for x in e]):.1f})")
