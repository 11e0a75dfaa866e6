"""Writes docs/fidelity-claims.yaml: every paper claim `sweep analyze` checks, with its status.

The status of a claim is `holds` when analyze's own test passes on the shipped run, and
otherwise the verdict of its investigation in docs/fidelity.md (OVERRIDES below, each with
the anchor of its section). RESULTS holds the five shipped runs, each made with
`bin/sweep run experiments/NAME.yaml --out RESULTS/NAME` and `bin/sweep analyze`, plus
RESULTS/vasupongayya2012.txt, the text `sweep analyze` prints for the fair-share run (which
writes no analysis Parquet):

    python3 experiments/fidelity/claims.py RESULTS > docs/fidelity-claims.yaml

Needs duckdb (pip install -r experiments/fidelity/requirements.txt). The output is YAML
whose strings are JSON strings.
"""
import json
import re
import sys

import duckdb

from dominance_two_sample import LOADS, compare

SAMPLING = ("sampling: the paper's value is itself an estimate on 150 pairs; Newcombe's 95% "
            "interval of the difference holds 0")
OVERRIDES = {
    # seed 004
    ("burkimsher2013", "dominance/slr_max/srtf/0.8"): ("explained", SAMPLING, "seed-004-tables-3-and-4", None),
    ("burkimsher2013", "dominance/slr_max/srtf/0.9"): ("explained", SAMPLING, "seed-004-tables-3-and-4", None),
    ("burkimsher2013", "dominance/slr_mean/srtf/0.9"): ("explained", SAMPLING, "seed-004-tables-3-and-4", None),
    ("burkimsher2013", "dominance/slr_mean/srtf/1.0"): ("explained", SAMPLING, "seed-004-tables-3-and-4", None),
    ("burkimsher2013", "dominance/slr_mean/fifo-job/0.9"): ("explained", SAMPLING, "seed-004-tables-3-and-4", None),
    ("burkimsher2013", "dominance/slr_max/random/1.1"): (
        "does-not-hold", "ours 100 in every setting tried; the paper's 93.3 breaks its column (87, 93, 100, 93.3, "
        "100), most likely a slip of the paper", "seed-004-tables-3-and-4", None),
    # seed 004, significance (the paper's bold marks were lost; expect.nonsignificant is our reading)
    ("burkimsher2013", "significance/slr_max/lrtf/0.8"): (
        "explained", "the paired t-test lacks power on heavy-tailed worst-case SLR at 0.8 (p 0.18); Wilcoxon "
        "p 6e-26 agrees with the paper", "seed-004-tables-3-and-4", None),
    ("burkimsher2013", "significance/slr_max/fifo-task/0.8"): (
        "explained", "the paired t-test lacks power on heavy-tailed worst-case SLR at 0.8 (p 0.23); Wilcoxon "
        "p 5e-21 agrees with the paper", "seed-004-tables-3-and-4", None),
    ("burkimsher2013", "significance/slr_max/fifo-job/0.8"): (
        "explained", "the paired t-test lacks power on heavy-tailed worst-case SLR at 0.8 (p 0.24); Wilcoxon "
        "p 5e-20 agrees with the paper", "seed-004-tables-3-and-4", None),
    ("burkimsher2013", "significance/slr_mean/srtf/0.8"): (
        "explained", "the paper's bold marks were lost and its text says only 'at higher load ratios' SRTF "
        "differs; ours is significant but a 0.3% effect (median ratio 0.997)", "seed-004-tables-3-and-4", None),
    ("burkimsher2013", "significance/slr_mean/srtf/1.0"): (
        "explained", "the paper's bold marks were lost and its text says only 'at higher load ratios' SRTF "
        "differs; 1.0 may be one of them (ours p 1e-4)", "seed-004-tables-3-and-4", None),
    # seed 000
    ("ostrich2013-lpc-egee", "lpc-egee/campaign_stretch_trimmed_mean/ostrich"): (
        "explained", "the outlier cut: at 4, the range of the paper's figures (1.5% dropped, 'less than 4%'), "
        "ours is 1.148", "seed-000-lpc-egee", "stretch cut at 4 (analysis)"),
    ("ostrich2013-lpc-egee", "lpc-egee/campaign_stretch_trimmed_mean/log"): (
        "explained", "the outlier cut: at 4, the range of the paper's figures (2.5% dropped), ours is 1.456",
        "seed-000-lpc-egee", "stretch cut at 4 (analysis)"),
    ("ostrich2013-lpc-egee", "lpc-egee/campaign_stretch_trimmed_p90/ostrich"): (
        "explained", "the stretch denominator: without the submission spread (stretch-base: alone) p90 is 1.0",
        "seed-000-lpc-egee", "campaign: {stretch-base: alone}"),
    ("ostrich2013-lpc-egee", "lpc-egee/campaign_stretch_trimmed_p99/ostrich"): (
        "explained", "the stretch denominator: without the submission spread (stretch-base: alone) p99 is 1.4",
        "seed-000-lpc-egee", "campaign: {stretch-base: alone}"),
    # seed 001
    ("ostrich2013-synthetic", "users20/short_user_max_stretch_mean/ostrich"): (
        "explained", "the virtual-start hold (the paper's text) gives 22; without it 11.1 +- 0.5 (12.1 at 40 "
        "users)", "seed-001-short-users-max-stretch", "campaign: {hold: none}"),
    ("ostrich2013-synthetic", "users20/long_user_max_stretch_mean/ostrich"): (
        "explained", "the stretch denominator: stretch-base: alone gives 6.94", "seed-001-short-users-max-stretch",
        "campaign: {stretch-base: alone}"),
    ("ostrich2013-synthetic", "users20/long_user_max_stretch_mean/fcfs"): (
        "explained", "the user count, not in the paper: 4.6 at 10 users, 7.7 at 20 (shipped); the paper's 6.3 "
        "lies between", "seed-001-short-users-max-stretch", None),
    ("ostrich2013-synthetic", "users4/long_user_max_stretch_mean/ostrich > fcfs"): (
        "explained", "at 4 users (a light load, not the paper's setting) 2.44 +- 0.16 vs 2.69 +- 0.26: 'almost "
        "the same performance', the paper's own words", "seed-001-short-users-max-stretch", None),
    # seed 002
    ("dutot2004", "uniform-weak/DEMT's average minsum ratio is worse than every algorithm's but Gang's"): (
        "explained", "list overtaking; with list: strict (or variant: compact) 16 of 16 n; the paper states "
        "the ordering for C_max", "seed-002-dutot2004", "moldable: {list: strict}"),
    ("dutot2004", "uniform-weak/DEMT's average C_max ratio is no more than 2"): (
        "explained", "list overtaking delays wide tasks; list: strict gives at most 1.900 (40 instances)",
        "seed-002-dutot2004", "moldable: {list: strict}"),
    ("dutot2004", "uniform-high/DEMT is the best on minsum"): (
        "explained", "fails at n = 25 only, where Gang wins in every setting; the paper: Gang is 'good with a "
        "small number of tasks'", "seed-002-dutot2004", None),
    ("dutot2004", "mixed/DEMT is stable around 2 on both criteria (average within 2 ± 0.5)"): (
        "does-not-hold", "C_max 1.79-1.93 holds; minsum 2.6-3.1 under every setting, not the LP version (the "
        "paper's literal bound is within 0.03% of ours); untested: the rebuilt generator, the lost symbol",
        "seed-002-dutot2004", None),
    ("dutot2004", "all/DEMT's minsum ratio is about 2 on average (within 2 ± 0.5)"): (
        "explained", "the batch anchor, open in the paper: anchor: pmin gives 2.495 (40 instances); not the LP "
        "version", "seed-002-dutot2004", "moldable: {anchor: pmin}"),
    ("dutot2004", "all/DEMT's C_max ratio is almost always below 2 (in >= 95% of the cells)"): (
        "explained", "list overtaking; list: strict gives 100% of the cells", "seed-002-dutot2004",
        "moldable: {list: strict}"),
    # seed 003
    ("vasupongayya2012", "Tradeoff-fs cuts the maximum wait sharply on SDSC 06/00 (T; the paper: 94.2 h to 38.9 h)"): (
        "does-not-hold", "the ordering holds (20-29% cut in every setting) but never the paper's 59%; "
        "remaining candidate: the paper's older SDSC log", "seed-003-table-ix-maximum-wait", None),
    ("vasupongayya2012", "sdsc/Table VII/total |dev| per month"): (
        "explained", "trace version: the paper's SDSC log had 3-16% fewer jobs per month; the two months whose "
        "top user differs carry the largest errors", "seed-003-sdsc-blue-months", None),
}


def number(x):
    return None if x is None else round(float(x), 6)


def entry(study, claim, text, paper, ours, interval, passed):
    status, reason, section, reproduced_by = OVERRIDES.get(
        (study, claim), ("holds" if passed else "does-not-hold", None, None, None))
    if not passed and (study, claim) not in OVERRIDES:
        raise SystemExit(f"{study} {claim}: fails on the shipped run and has no investigation")
    return dict(study=study, claim=claim, text=text, paper=paper, ours=ours, interval=interval,
                status=status, reason=reason, section=section, reproduced_by=reproduced_by)


def seed004(root):
    study = "burkimsher2013"
    sig = dict(((m, p, l), s) for m, p, l, s in duckdb.sql(
        f"select metric, policy, load, significant from '{root}/{study}/analysis/dominance.parquet' "
        "where load is not null").fetchall())
    nonsignificant = {("slr_max", "srtf", load) for load in LOADS} | {("slr_mean", "srtf", load) for load in LOADS[:3]}
    name = {"slr_max": "Table 3 (worst-case SLR)", "slr_mean": "Table 4 (mean SLR)"}
    for metric, policy, load, pct, lo, hi, want, _, _ in compare(f"{root}/{study}"):
        yield entry(study, f"dominance/{metric}/{policy}/{load}",
                    f"{name[metric]}: P-SLR at least as good as {policy} at load {load}",
                    number(want), number(pct), [number(lo), number(hi)], lo <= want <= hi)
        paper_sig = (metric, policy, load) not in nonsignificant
        ours_sig = bool(sig[(metric, policy, load)])
        yield entry(study, f"significance/{metric}/{policy}/{load}",
                    f"{name[metric]}: the paired t-test against {policy} at load {load} is "
                    f"{'significant' if paper_sig else 'not significant'}",
                    "significant" if paper_sig else "not significant",
                    "significant" if ours_sig else "not significant", None, paper_sig == ours_sig)


def campaigns(root, study):
    # One instance (a trace) has no interval over instances: take the bootstrap's.
    for w, metric, policy, mean, lo, hi, paper, rel, matches in duckdb.sql(
            f"""select f.workload, f.metric, f.policy, f.mean, coalesce(f.ci95_low, b.ci95_low),
                coalesce(f.ci95_high, b.ci95_high), f.paper, f.paper_relation, f.matches
            from '{root}/{study}/analysis/figures.parquet' f
            left join '{root}/{study}/analysis/campaign_bootstrap.parquet' b
              on b.workload = f.workload and b.metric = f.metric and b."of" = f.policy
            where f.paper is not null order by all""").fetchall():
        shown = paper if rel == "=" else f"{rel} {paper:g}"
        interval = None if lo is None else [number(lo), number(hi)]
        yield entry(study, f"{w}/{metric}/{policy}", f"{metric} of {policy} on {w}", shown, number(mean),
                    interval, bool(matches))
    for w, metric, left, rel, right, lmean, rmean, holds in duckdb.sql(
            f"select * from '{root}/{study}/analysis/orderings.parquet' order by all").fetchall():
        yield entry(study, f"{w}/{metric}/{left} {rel} {right}", f"{metric}: {left} {rel} {right} on {w}",
                    f"{left} {rel} {right}", f"{lmean:.4g} vs {rmean:.4g}", None, bool(holds))


def seed002(root):
    study = "dutot2004"
    # The claims table of every study (analysis/fidelity): a claim passed
    # when its status is holds.
    for claim, text, detail, status in duckdb.sql(
            f"select claim, text, ours_text as ours, status from '{root}/{study}/analysis/claims.parquet'").fetchall():
        yield entry(study, claim, text, "as the text says", detail, None, status == "holds")


def seed003(root):
    study = "vasupongayya2012"
    text = open(f"{root}/{study}.txt").read()
    for claim, verdict, detail in re.findall(r"^- (.*): (holds|DOES NOT HOLD) \((.*)\)$", text, re.M):
        quoted = re.search(r"the paper: ([^)]*)\)", claim)
        paper = quoted.group(1) if quoted else "as the text says"
        yield entry(study, claim, claim, paper, detail, None, verdict == "holds")
    yield entry(study, "sdsc/Table VII/total |dev| per month", "SDSC total |dev| per month (Tables IV, VII)",
                "Table VII", "mean relative error of the month values 12.7-20.4% (KTH 4.8-13.0%)", None, False)


def main():
    root = sys.argv[1]
    entries = [*seed004(root), *campaigns(root, "ostrich2013-lpc-egee"),
               *campaigns(root, "ostrich2013-synthetic"), *seed002(root), *seed003(root)]
    print("# Every paper claim `sweep analyze` checks, with its status (issue 26; docs/fidelity.md).")
    print("# Generated by experiments/fidelity/claims.py from the shipped runs; status: holds |")
    print("# does-not-hold | explained | not-checkable; section: the anchor in docs/fidelity.md.")
    counts = {}
    for e in entries:
        counts[e["status"]] = counts.get(e["status"], 0) + 1
    print("# " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    for e in entries:
        first = True
        for key, value in e.items():
            if value is None and key in ("reason", "section", "reproduced_by", "interval"):
                continue
            print(("- " if first else "  ") + f"{key}: {json.dumps(value, ensure_ascii=False)}")
            first = False


if __name__ == "__main__":
    main()
