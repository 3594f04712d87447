// query.mjs - run SQL in one in-memory DuckDB and print, for each
// argument (an SQL text, or "-f FILE"), the rows of its last statement as
// one line holding a JSON array of objects (BIGINT as strings, DOUBLE as
// numbers in JSON's shortest round-trip form, so a double comes back bit
// for bit).  Views made by one argument serve the next.  Used by
// tests/cli/t7*.sh through tests/cli/duckdb.sh and
// tests/cli/helper/export-check.py.
import { readFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const args = process.argv.slice(2);
const sqls = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '-f' && i + 1 < args.length)
    sqls.push(readFileSync(args[++i], 'utf8'));
  else
    sqls.push(args[i]);
}
try {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  for (const sql of sqls) {
    const r = await con.runAndReadAll(sql);
    process.stdout.write(JSON.stringify(r.getRowObjectsJson()) + '\n');
  }
} catch (e) {
  process.stderr.write('duckdb: ' + e.message + '\n');
  process.exit(1);
}
