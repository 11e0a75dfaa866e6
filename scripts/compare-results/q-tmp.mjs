import { DuckDBInstance } from "@duckdb/node-api";
const db = await (await DuckDBInstance.create(":memory:")).connect();
const r = await (await db.runAndReadAll(process.argv[2])).getRowObjects();
for (const x of r) console.log(Object.values(x).map(String).join("\t"));
