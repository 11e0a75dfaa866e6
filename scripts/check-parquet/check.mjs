// check.mjs DIR: reads every Parquet file below a results directory with three
// independent readers, the way users will: parquet-wasm (the Rust reference
// implementation, arrow-rs, which refuses invalid statistics), nodejs-polars
// and DuckDB. For each file it compares, reader by reader, the row count and,
// per column, the null count and a fingerprint of the values (the sum of the
// finite numbers, the total length of the strings). Exit 1 on any refusal or
// difference.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readParquet } from 'parquet-wasm/node';
import { tableFromIPC } from 'apache-arrow';
import pl from 'nodejs-polars';
import { DuckDBInstance } from '@duckdb/node-api';

const dir = process.argv[2];
if (!dir) { console.error('usage: node check.mjs RESULTS_DIR'); process.exit(2); }

function files(d) {
  return readdirSync(d).flatMap(n => {
    const p = join(d, n);
    if (statSync(p).isDirectory()) return files(p);
    return n.endsWith('.parquet') && !n.startsWith('.') ? [p] : [];
  });
}

// fingerprint reduces a column's values to [nulls, sum]: the sum of finite
// numbers (a list's elements included), or of string lengths.
function fingerprint(values) {
  let nulls = 0, sum = 0;
  for (const v of values) {
    if (v === null || v === undefined) { nulls++; continue; }
    if (typeof v === 'string') sum += v.length;
    else if (typeof v === 'bigint') sum += Number(v);
    else if (typeof v === 'number') { if (Number.isFinite(v)) sum += v; }
    else if (typeof v[Symbol.iterator] === 'function') sum += fingerprint(v)[1];
  }
  return [nulls, sum];
}

function viaWasm(path) {
  const table = tableFromIPC(readParquet(readFileSync(path)).intoIPCStream());
  const cols = {};
  for (const f of table.schema.fields) cols[f.name] = fingerprint(table.getChild(f.name).toArray ? [...table.getChild(f.name)] : []);
  return { rows: table.numRows, cols };
}

function viaPolars(path) {
  const df = pl.readParquet(path);
  const cols = {};
  for (const name of df.columns) cols[name] = fingerprint(df.getColumn(name).toArray());
  return { rows: df.height, cols };
}

async function viaDuckDB(conn, path) {
  const r = await conn.runAndReadAll(`select * from read_parquet('${path.replaceAll("'", "''")}')`);
  const names = r.columnNames();
  const rows = r.getRowsJS();
  const cols = {};
  names.forEach((name, i) => { cols[name] = fingerprint(rows.map(row => row[i])); });
  return { rows: rows.length, cols };
}

function same(a, b) {
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
let problems = 0, checked = 0;
const tables = {};
for (const path of files(dir)) {
  const got = {};
  for (const [name, read] of [['parquet-wasm', viaWasm], ['polars', viaPolars], ['duckdb', p => viaDuckDB(conn, p)]]) {
    try { got[name] = await read(path); } catch (e) { console.log(`${path}: ${name} refused it: ${e.message ?? e}`); problems++; }
  }
  const readers = Object.keys(got);
  if (readers.length < 2) continue;
  const ref = got[readers[0]];
  for (const other of readers.slice(1)) {
    const o = got[other];
    if (o.rows !== ref.rows) { console.log(`${path}: ${readers[0]} ${ref.rows} rows, ${other} ${o.rows}`); problems++; }
    for (const [col, [nulls, sum]] of Object.entries(ref.cols)) {
      const oc = o.cols[col];
      if (!oc) { console.log(`${path}: ${other} lacks column ${col}`); problems++; continue; }
      if (oc[0] !== nulls || !same(oc[1], sum)) {
        console.log(`${path}: column ${col}: ${readers[0]} nulls ${nulls} sum ${sum}, ${other} nulls ${oc[0]} sum ${oc[1]}`); problems++;
      }
    }
  }
  const table = path.slice(dir.length).split('/').filter(Boolean).slice(0, -1).join('/') || '.';
  tables[table] = (tables[table] ?? 0) + ref.rows;
  checked++;
}
for (const [t, rows] of Object.entries(tables).sort()) console.log(`${t}: ${rows} rows`);
console.log(`${checked} files read by parquet-wasm, polars and duckdb: ${problems === 0 ? 'all agree' : problems + ' problems'}`);
process.exit(problems === 0 ? 0 : 1);
