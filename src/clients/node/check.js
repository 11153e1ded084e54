// node-postgres against tablesql's server, as an application uses it (PgClientsTest runs it):
// parameters (the extended protocol), a transaction, an error's code, the catalog's listing of
// the table and its columns, and an export by COPY ... TO STDOUT (pg-copy-streams). Connection settings come
// from PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE; the table's name is the argument.
const { Client } = require('pg');
const { to: copyTo } = require('pg-copy-streams');

async function main() {
  const table = process.argv[2];
  const client = new Client();
  await client.connect();
  const seen = [];
  await client.query('BEGIN');
  await client.query(`INSERT INTO ${table} (PartitionKey, RowKey, Name, N) VALUES ($1, $2, $3, $4)`, ['p1', '1', 'Ann', 10]);
  await client.query(`INSERT INTO ${table} (PartitionKey, RowKey, Name, N) VALUES ($1, $2, $3, $4)`, ['p2', '2', 'Bob', 20]);
  await client.query('COMMIT');
  const rows = await client.query(`SELECT RowKey, Name, N FROM ${table} WHERE N >= $1 ORDER BY RowKey`, [10]);
  seen.push(rows.rows.map((row) => `${row.rowkey ?? row.RowKey}:${row.name ?? row.Name}:${row.n ?? row.N}`).join(','));
  try {
    await client.query(`SELECT Nope FROM ${table}`);
    seen.push('no error');
  } catch (error) {
    seen.push(error.code);
  }
  const count = await client.query(`SELECT COUNT(*) AS c FROM ${table}`);
  seen.push(String(count.rows[0].c ?? count.rows[0].C));
  const tables = await client.query('SELECT table_name FROM information_schema.tables '
    + 'WHERE table_schema = current_schema() AND table_name = $1', [table]);
  seen.push(tables.rows.map((row) => row.table_name).join(','));
  const columns = await client.query('SELECT column_name FROM information_schema.columns '
    + "WHERE table_name = $1 AND column_name IN ('Name', 'N') ORDER BY column_name", [table]);
  seen.push(columns.rows.map((row) => row.column_name).join(','));
  let exported = '';
  for await (const chunk of client.query(copyTo(`COPY (SELECT RowKey, Name FROM ${table} ORDER BY RowKey) TO STDOUT WITH (FORMAT CSV)`))) {
    exported += chunk.toString();
  }
  seen.push(exported.trim().split('\n').join(';'));
  await client.end();
  console.log(seen.join('|'));
}

main().catch((error) => {
  console.error(error.code, error.message);
  process.exit(1);
});
