"""Seed 002's minsum ratios over the paper's literal interval LP (docs/fidelity.md#seed-002-dutot2004).

Joins the bounds that `go run ./experiments/fidelity/literallp` prints with the cells of the
shipped run, checks that the safe bound equals the one sweep stored (the same instances),
and prints DEMT's minsum ratios over both bounds: per workload the range over n of the
average ratio (sum of values / sum of bounds, as `sweep analyze`), and the mean of the
per-cell ratios over every DEMT cell (the claim "about 2 on average"):

    python3 experiments/fidelity/literal_ratio.py /tmp/fid/literal-lp.tsv results/dutot2004
"""
import sys

import duckdb

tsv, results = sys.argv[1], sys.argv[2]
con = duckdb.connect()
con.sql(f"create view lp as select * from read_csv('{tsv}', delim='\t', header=true)")
con.sql(f"""create view c as select cells.workload, cells.instance, cells.policy, cells.sum_wc,
    cells.sum_wc_bound, lp.safe, lp.literal from '{results}/cells/*.parquet' cells
    join lp on lp.workload = cells.workload and lp.instance = cells.instance""")
bad = con.sql("select count(*) from c where abs(safe - sum_wc_bound) > 1e-9 * sum_wc_bound").fetchone()[0]
total = con.sql("select count(*) from c").fetchone()[0]
print(f"{total} cells joined; safe bound differs from the stored one in {bad}")
print(con.sql("""select split_part(workload, '-n', 1) kind,
    round(min(r_safe), 3) safe_min, round(max(r_safe), 3) safe_max,
    round(min(r_lit), 3) literal_min, round(max(r_lit), 3) literal_max,
    round(avg(gain), 4) literal_over_safe
    from (select workload, sum(sum_wc) / sum(safe) r_safe, sum(sum_wc) / sum(literal) r_lit,
            avg(literal / safe) gain from c where policy = 'DEMT' group by workload)
    group by kind order by kind"""))
print(con.sql("""select round(avg(sum_wc / safe), 3) demt_mean_safe, round(avg(sum_wc / literal), 3) demt_mean_literal
    from c where policy = 'DEMT'"""))
print("minsum average ratio at n = 25 and 400, every algorithm, over the literal bound:")
print(con.sql("""select workload, policy, round(sum(sum_wc) / sum(literal), 3) ratio from c
    where workload like '%n025' or workload like '%n400' group by all order by workload, ratio"""))
