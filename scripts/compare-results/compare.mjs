// Compares two results directories table by table with DuckDB: for every
// table present in both (cells, jobs, campaigns, users, volume_deciles and
// the analysis tables), the rows of A not in B and of B not in A, as
// multisets (EXCEPT ALL), over every column but wall_ms (a measurement, not
// a result) and the moldable run_seconds (an algorithm's wall time) with its
// mean and maximum in the analysis.
// Prints one line per table and exits 1 when any table differs.
//
//   node scripts/compare-results/compare.mjs DIR_A DIR_B
import { DuckDBInstance } from "@duckdb/node-api";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const [a, b] = process.argv.slice(2);
if (!a || !b) {
  console.error("usage: compare.mjs DIR_A DIR_B");
  process.exit(2);
}
const skip = new Set(["wall_ms", "run_seconds", "run_seconds_mean", "run_seconds_max"]);
const tables = (dir) => {
  const out = [];
  for (const t of readdirSync(dir, { withFileTypes: true })) {
    if (!t.isDirectory()) continue;
    if (t.name === "analysis") {
      for (const f of readdirSync(join(dir, "analysis"))) if (f.endsWith(".parquet")) out.push(join("analysis", f));
    } else if (readdirSync(join(dir, t.name)).some((f) => f.endsWith(".parquet"))) {
      out.push(t.name);
    }
  }
  return out.sort();
};
const source = (dir, t) => (t.endsWith(".parquet") ? `read_parquet('${join(dir, t)}')` : `read_parquet('${join(dir, t)}/*.parquet', union_by_name=true)`);
const db = await (await DuckDBInstance.create(":memory:")).connect();
let differ = 0;
for (const t of tables(a)) {
  if (!existsSync(join(b, t))) {
    console.log(`${t}: only in ${a}`);
    differ++;
    continue;
  }
  try {
  const cols = (await (await db.runAndReadAll(`describe select * from ${source(a, t)}`)).getRowObjects())
    .map((r) => r.column_name)
    .filter((c) => !skip.has(c))
    .map((c) => `"${c}"`)
    .join(", ");
  const count = async (x, y) =>
    Number((await (await db.runAndReadAll(`select count(*) as n from (select ${cols} from ${source(x, t)} except all select ${cols} from ${source(y, t)})`)).getRowObjects())[0].n);
  const rows = Number((await (await db.runAndReadAll(`select count(*) as n from ${source(a, t)}`)).getRowObjects())[0].n);
  const ab = await count(a, b);
  const ba = await count(b, a);
  if (ab || ba) differ++;
  console.log(`${t}: ${rows} rows; ${ab} only in A, ${ba} only in B`);
  } catch (e) {
    differ++;
    console.log(`${t}: cannot compare, the tables' columns differ: ${String(e.message).split("\n")[0]}`);
  }
}
process.exit(differ ? 1 : 0);
