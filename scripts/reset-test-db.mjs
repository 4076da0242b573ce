// Drops what earlier test runs left in the PostgreSQL named by DATABASE_URL (schemas ramp_test_*), so CI starts clean.
import pg from 'pg';

const url = process.env.DATABASE_URL;
if (!url) {
  console.error('reset-test-db: DATABASE_URL is not set');
  process.exit(1);
}
const client = new pg.Client({ connectionString: url });
await client.connect();
const { rows } = await client.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'ramp_test_%'`);
for (const { nspname } of rows) await client.query(`DROP SCHEMA IF EXISTS "${nspname}" CASCADE`);
await client.end();
console.log(`reset-test-db: dropped ${rows.length} leftover test schema(s)`);
