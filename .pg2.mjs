import { PGlite } from '@electric-sql/pglite';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
if (process.argv[2] === 'child') {
  const db = await PGlite.create('memory://');
  const blob = await db.dumpDataDir('none');
  writeFileSync('/tmp/x/dump.tar', Buffer.from(await blob.arrayBuffer()));
  await db.close();
  process.exit(0);
}
const t0 = performance.now();
execFileSync(process.execPath, ['.pg2.mjs', 'child'], { stdio: 'inherit' });
const t1 = performance.now();
const buf = readFileSync('/tmp/x/dump.tar');
console.log('dump MB', (buf.length/2**20).toFixed(1), 'child ms', (t1-t0).toFixed(0));
const db = await PGlite.create('memory://', { loadDataDir: new Blob([buf]), postgresqlconf: ['shared_buffers = 16MB'] });
const r = await db.query("select current_setting('shared_buffers') sb");
console.log(r.rows[0], 'open ms', (performance.now()-t1).toFixed(0), 'rss MB', (process.memoryUsage.rss()/2**20).toFixed(0));
await db.query('create table t(a int, b text)');
await db.query("insert into t select i, repeat('x',100) from generate_series(1,200000) i");
await db.query('select count(*) from t');
console.log('after load rss MB', (process.memoryUsage.rss()/2**20).toFixed(0));
