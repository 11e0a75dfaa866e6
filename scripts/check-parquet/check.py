"""check.py DIR...: reads every table of each results directory DIR with
pyarrow, pandas and polars, the way notebooks will, and checks:

- each reader reads every file: the row count and, per column, the null
  count and a fingerprint of the values (the sum of the finite numbers,
  list elements included; the total length of the strings) agree;
- every file's metadata: the Arrow schema is embedded; run tables carry
  sweep.models, sweep.manifest_sha256 and sweep.tool_version; where
  sweep.categories lists a column's categories, every row group's
  dictionary starts with them and pandas reads a Categorical in that order;
- a column name has one type in every table of every directory
  (dictionary strings count as strings).

Exit 1 on any refusal or difference."""

import json
import math
import sys
from pathlib import Path

import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

RUN_KEYS = [b"sweep.models", b"sweep.manifest_sha256", b"sweep.tool_version"]
problems = []


def problem(msg):
    problems.append(msg)
    print(msg)


def fingerprint(values):
    """(nulls, NaNs, sum) of a column given as Python values."""
    nulls, nans, total = 0, 0, 0.0
    for v in values:
        if v is None or v is pd.NA:
            nulls += 1
        elif isinstance(v, float) and math.isnan(v):
            nans += 1
        elif isinstance(v, str):
            total += len(v)
        elif isinstance(v, (list, tuple)) or hasattr(v, "tolist"):
            items = v.tolist() if hasattr(v, "tolist") else v
            total += sum(x for x in items if x is not None and math.isfinite(x))
        elif isinstance(v, (int, float)) and math.isfinite(v):
            total += v
    return nulls, nans, total


def via_pyarrow(table):
    return {name: fingerprint(table.column(name).to_pylist()) for name in table.column_names}


def via_pandas(path):
    """pandas with its default (numpy) types, as notebooks read: a null
    float is NaN there, so only nulls + NaNs can be compared."""
    df = pd.read_parquet(path)
    out = {}
    for name in df.columns:
        nulls, nans, total = fingerprint(df[name].astype(object).tolist())
        out[name] = (None, nulls + nans, total)
    return len(df), out, df


def via_polars(path):
    df = pl.read_parquet(path)
    return df.height, {name: fingerprint(df[name].to_list()) for name in df.columns}


def same(a, b):
    return a == b or abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))


def plain_type(t):
    if pa.types.is_dictionary(t):
        return plain_type(t.value_type)
    if pa.types.is_large_string(t):
        return pa.string()
    return t


def check_categories(path, meta, df):
    listed = json.loads(meta[b"sweep.categories"])
    pf = pq.ParquetFile(path)
    for column, order in listed.items():
        for rg in range(pf.num_row_groups):
            chunk = pf.read_row_group(rg, columns=[column]).column(0)
            for piece in chunk.chunks:
                if not pa.types.is_dictionary(piece.type):
                    problem(f"{path}: {column} is {piece.type}, not a dictionary")
                    continue
                if piece.dictionary.to_pylist()[:len(order)] != order:
                    problem(f"{path}: row group {rg}: {column}'s dictionary {piece.dictionary.to_pylist()} does not start with {order}")
        got = list(df[column].cat.categories) if isinstance(df[column].dtype, pd.CategoricalDtype) else None
        if got is None or got[:len(order)] != order:
            problem(f"{path}: pandas reads {column} with categories {got}; want them to start with {order}")


def main(dirs):
    types = {}  # column name -> {type: first file}
    files = 0
    tables = {}
    for d in map(Path, dirs):
        for path in sorted(p for p in d.rglob("*.parquet") if not p.name.startswith(".")):
            files += 1
            table_name = str(path.parent.relative_to(d)) if path.parent != d / "analysis" else "analysis/" + path.stem
            try:
                table = pq.read_table(path)
            except Exception as e:  # noqa: BLE001 - a refusal is what we report
                problem(f"{path}: pyarrow refused it: {e}")
                continue
            meta = pq.read_metadata(path).metadata or {}
            if b"ARROW:schema" not in meta:
                problem(f"{path}: no embedded Arrow schema")
            if not table_name.startswith("analysis/"):
                for key in RUN_KEYS:
                    if not meta.get(key):
                        problem(f"{path}: metadata lacks {key.decode()}")
            ref = via_pyarrow(table)
            for field in table.schema:
                types.setdefault(field.name, {}).setdefault(str(plain_type(field.type)), f"{table_name} ({path})")
            got = {}
            try:
                rows, cols, df = via_pandas(path)
                got["pandas"] = (rows, cols)
                if b"sweep.categories" in meta:
                    check_categories(path, meta, df)
            except Exception as e:  # noqa: BLE001
                problem(f"{path}: pandas refused it: {e}")
            try:
                got["polars"] = via_polars(path)
            except Exception as e:  # noqa: BLE001
                problem(f"{path}: polars refused it: {e}")
            for reader, (rows, cols) in got.items():
                if rows != table.num_rows:
                    problem(f"{path}: pyarrow {table.num_rows} rows, {reader} {rows}")
                for name, (nulls, nans, total) in ref.items():
                    if name not in cols:
                        problem(f"{path}: {reader} lacks column {name}")
                        continue
                    theirs = cols[name]
                    want = (nulls, nans) if theirs[0] is not None else (None, nulls + nans)
                    if theirs[:2] != want or not same(theirs[2], total):
                        problem(f"{path}: column {name}: pyarrow (nulls, NaNs, sum) {(nulls, nans, total)}, {reader} {theirs}")
            tables[table_name] = tables.get(table_name, 0) + table.num_rows
    for name, seen in sorted(types.items()):
        if len(seen) > 1:
            problem(f"column {name} has {len(seen)} types: " + "; ".join(f"{t} in {where}" for t, where in seen.items()))
    for t, rows in sorted(tables.items()):
        print(f"{t}: {rows} rows")
    print(f"{files} files read by pyarrow, pandas and polars: " + ("all agree" if not problems else f"{len(problems)} problems"))
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print("usage: check.py RESULTS_DIR...", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1:]))
