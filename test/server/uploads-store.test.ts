// The file store under uploads: the 50 MiB boundary, refused uploads keep no bytes, the per-customer quota, private modes,
// and the orphan sweep (including against an upload of the same bytes in flight, on PostgreSQL).
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { MAX_DOCUMENT_BYTES } from '../../src/contract/kyc';
import { newId } from '../../server/ids';
import { createLogger } from '../../server/logger';
import { LocalFileStore } from '../../server/store/file-store';
import { insertDocument, lockFileHash } from '../../server/store/queries/documents';
import { OrphanSweeper, sweepOrphanFiles } from '../../server/workers/orphan-sweep';
import { client, individual, type TestServer, startTestServer } from './harness';
import { individualInfo, JPG } from './kyc-helpers';
import { eventually, pdfOfSize, sha256, storeEntries, type UploadTarget, uploadTargets, uploadTo } from './uploads-helpers';
import { inTransaction } from '../../server/store/db';

let server: TestServer;
let targets: UploadTarget[];
let customerId: string;
const MAX_DOCS = 6;
const MAX_BYTES = 60 * 1024 * 1024;

before(async () => {
  server = await startTestServer({ RAMP_MAX_DOCUMENTS_PER_CUSTOMER: String(MAX_DOCS), RAMP_MAX_DOCUMENT_BYTES_PER_CUSTOMER: String(MAX_BYTES) });
  ({ customerId, targets } = await uploadTargets(server));
});
after(() => server?.close());

const v2 = () => targets[0]!;
const quiet = createLogger('silent');
const sweepDeps = () => ({ db: server.deps.store.db, files: server.deps.files, logger: quiet });

/** A fresh customer ready for documents, with its /v2 upload target. */
async function freshCustomer(): Promise<UploadTarget> {
  const api = client(server, server.apiKey);
  const c = await api.post('/v2/customers', individual());
  assert.equal((await api.patch(`/v2/customers/${c.body.id}/additional-information`, individualInfo())).status, 200);
  return { route: '/v2', path: `/v2/customers/${c.body.id}/documents`, token: server.apiKey };
}

describe('size limit', () => {
  test('a file of exactly 50 MiB is accepted; one byte more is a 413 and keeps no bytes', async () => {
    const exact = pdfOfSize(MAX_DOCUMENT_BYTES);
    const ok = await uploadTo(server, v2(), { type: 'BANK_STATEMENT' }, exact);
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.size, MAX_DOCUMENT_BYTES);
    assert.equal(ok.body.sha256, sha256(exact));
    const over = pdfOfSize(MAX_DOCUMENT_BYTES + 1);
    const refused = await uploadTo(server, v2(), { type: 'BANK_STATEMENT' }, over);
    assert.equal(refused.status, 413, refused.text);
    assert.equal(refused.body.code, 'PAYLOAD_TOO_LARGE');
    const store = await storeEntries(server.deps.files);
    assert.ok(store.files.includes(sha256(exact)));
    assert.ok(!store.files.includes(sha256(over)));
    assert.deepEqual(store.temps, []);
  });
});

describe('refused uploads keep no bytes', () => {
  test('bad type, bad fields, a field too long, a refused selfie: every refusal leaves the store as it was', async () => {
    const target = await freshCustomer();
    const initial = await storeEntries(server.deps.files);
    const cases: [Record<string, string>, Buffer, number, string][] = [
      [{ type: 'BANK_STATEMENT' }, Buffer.from('plain text, not a document\n'.repeat(400)), 415, 'file'],
      [{}, pdfOfSize(10_000), 400, 'type'],
      [{ type: 'ID_CARD' }, pdfOfSize(10_000), 400, 'side'],
      [{ type: 'PASSPORT', country: 'XYZ' }, pdfOfSize(10_000), 400, 'country'],
      [{ type: 'PASSPORT', associatedPartyId: newId() }, pdfOfSize(10_000), 404, 'associatedPartyId'],
      [{ type: 'SELFIE' }, pdfOfSize(10_000), 400, 'type'],
      [{ type: 'OTHER', country: 'B'.repeat(2000) }, pdfOfSize(10_000), 400, 'country'],
    ];
    for (const [fields, bytes, status, path] of cases) {
      const res = await uploadTo(server, target, fields, bytes);
      assert.equal(res.status, status, `${JSON.stringify(fields).slice(0, 80)}: ${res.text}`);
      assert.ok(res.body.errors.some((e: { path: string }) => e.path === path), res.text);
    }
    const liveness = await uploadTo(server, { ...targets[2]!, path: '/verify/api/customer/liveness' }, {}, pdfOfSize(10_000));
    assert.equal(liveness.status, 415, liveness.text);
    assert.deepEqual(await storeEntries(server.deps.files), initial);
  });
});

describe('per-customer quota', () => {
  test('documents over the quota are a 409 DOCUMENT_QUOTA_EXCEEDED, before and after the body, and keep no bytes', async () => {
    const target = await freshCustomer();
    for (let i = 0; i < MAX_DOCS; i++) assert.equal((await uploadTo(server, target, { type: 'OTHER' }, pdfOfSize(1000))).status, 201);
    const extra = pdfOfSize(1000);
    const full = await uploadTo(server, target, { type: 'OTHER' }, extra);
    assert.equal(full.status, 409, full.text);
    assert.equal(full.body.code, 'DOCUMENT_QUOTA_EXCEEDED');
    assert.deepEqual(full.body.limit, { documents: MAX_DOCS, bytes: MAX_BYTES });
    assert.equal(full.body.used.documents, MAX_DOCS);
    assert.ok(!(await storeEntries(server.deps.files)).files.includes(sha256(extra)));
  });

  test('bytes over the quota are refused with the file read, in the transaction that would record it', async () => {
    const target = await freshCustomer();
    const big = pdfOfSize(40 * 1024 * 1024);
    assert.equal((await uploadTo(server, target, { type: 'OTHER' }, big)).status, 201);
    const tooMuch = pdfOfSize(21 * 1024 * 1024); // 61 MiB in all
    const refused = await uploadTo(server, target, { type: 'OTHER' }, tooMuch);
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.code, 'DOCUMENT_QUOTA_EXCEEDED');
    assert.ok(!(await storeEntries(server.deps.files)).files.includes(sha256(tooMuch)));
    assert.equal((await uploadTo(server, target, { type: 'OTHER' }, pdfOfSize(19 * 1024 * 1024))).status, 201, 'what fits still fits');
  });

  test('concurrent uploads never pass the quota (PostgreSQL)', async (t) => {
    if (server.deps.store.kind !== 'postgres') return t.skip('needs PostgreSQL: PGlite runs one transaction at a time, so there is no race to lose');
    const target = await freshCustomer();
    const files = Array.from({ length: MAX_DOCS + 6 }, () => pdfOfSize(2000));
    const results = await Promise.all(files.map((f) => uploadTo(server, target, { type: 'OTHER' }, f)));
    assert.equal(results.filter((r) => r.status === 201).length, MAX_DOCS);
    assert.ok(results.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'DOCUMENT_QUOTA_EXCEEDED')), JSON.stringify(results.map((r) => r.status)));
    const stored = new Set((await storeEntries(server.deps.files)).files);
    files.forEach((f, i) => assert.equal(stored.has(sha256(f)), results[i]!.status === 201));
  });
});

describe('a transaction that fails after publishing', () => {
  test('removes the published file, unless another document names the same bytes', async () => {
    const files = server.deps.files as LocalFileStore;
    const target = await freshCustomer();
    const shared = pdfOfSize(3000);
    assert.equal((await uploadTo(server, target, { type: 'OTHER' }, shared)).status, 201);
    const lone = pdfOfSize(3000);
    const publish = files.publish;
    files.publish = async function (this: LocalFileStore, f) {
      await publish.call(this, f);
      throw new Error('simulated failure after the file was moved into place');
    };
    try {
      assert.equal((await uploadTo(server, target, { type: 'OTHER' }, lone)).status, 500);
      assert.equal((await uploadTo(server, target, { type: 'OTHER' }, shared)).status, 500);
    } finally {
      files.publish = publish;
    }
    const store = await storeEntries(files);
    assert.ok(!store.files.includes(sha256(lone)), 'the file of the document that never committed is gone');
    assert.ok(store.files.includes(sha256(shared)), 'the same bytes of a committed document stay');
    assert.deepEqual(store.temps, []);
    const docs = await client(server, server.apiKey).get(`${target.path}`);
    assert.equal(docs.body.data.length, 1);
  });
});

describe('file modes', () => {
  test('the store directory is 0700 and files are 0600, even in a directory made 0755 before', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ramp-modes-'));
    try {
      chmodSync(dir, 0o755);
      const files = new LocalFileStore(dir);
      const staged = await files.stage(Readable.from([JPG]));
      assert.equal(statSync(join(dir, 'tmp', staged.tempKey)).mode & 0o777, 0o600);
      await files.publish(staged);
      assert.equal(statSync(dir).mode & 0o777, 0o700);
      assert.equal(statSync(join(dir, 'tmp')).mode & 0o777, 0o700);
      assert.equal(statSync(join(dir, staged.sha256.slice(0, 2))).mode & 0o777, 0o700);
      assert.equal(statSync(join(dir, staged.sha256.slice(0, 2), staged.sha256)).mode & 0o777, 0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an uploaded document is 0600 in the service store', async () => {
    const bytes = pdfOfSize(3000);
    assert.equal((await uploadTo(server, v2(), { type: 'OTHER' }, bytes)).status, 201);
    const dir = (server.deps.files as unknown as { dir: string }).dir;
    assert.equal(statSync(join(dir, sha256(bytes).slice(0, 2), sha256(bytes))).mode & 0o777, 0o600);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
  });
});

describe('orphan sweep', () => {
  const files = () => server.deps.files;
  const age = (kind: 'file' | 'temp', key: string, ms: number) => {
    const dir = (server.deps.files as unknown as { dir: string }).dir;
    const p = kind === 'file' ? join(dir, key.slice(0, 2), key) : join(dir, 'tmp', key);
    const t = new Date(Date.now() - ms);
    utimesSync(p, t, t);
  };

  test('removes old files no document names and old temporaries; keeps documents, and anything younger than the grace', async () => {
    const kept = pdfOfSize(5000);
    assert.equal((await uploadTo(server, v2(), { type: 'OTHER' }, kept)).status, 201);
    age('file', sha256(kept), 10 * 3_600_000);
    const oldOrphan = await files().stage(Readable.from([pdfOfSize(5000)]));
    await files().publish(oldOrphan);
    age('file', oldOrphan.sha256, 2 * 3_600_000);
    const youngOrphan = await files().stage(Readable.from([pdfOfSize(5000)]));
    await files().publish(youngOrphan);
    const oldTemp = await files().stage(Readable.from([pdfOfSize(5000)]));
    age('temp', oldTemp.tempKey, 2 * 3_600_000);
    const youngTemp = await files().stage(Readable.from([pdfOfSize(5000)]));

    const removed = await sweepOrphanFiles(sweepDeps(), { graceMs: 3_600_000 });
    assert.deepEqual(removed, { files: 1, temps: 1 });
    const store = await storeEntries(files());
    assert.ok(store.files.includes(sha256(kept)), 'a document file stays, however old');
    assert.ok(!store.files.includes(oldOrphan.sha256));
    assert.ok(store.files.includes(youngOrphan.sha256));
    assert.ok(!store.temps.includes(oldTemp.tempKey));
    assert.ok(store.temps.includes(youngTemp.tempKey));
    await files().discard(youngTemp);
    assert.deepEqual(await sweepOrphanFiles(sweepDeps(), { graceMs: 0 }), { files: 1, temps: 0 });
  });

  test('the background sweeper runs by itself until stopped', async () => {
    const temp = await files().stage(Readable.from([pdfOfSize(3000)]));
    age('temp', temp.tempKey, 10_000);
    const sweeper = new OrphanSweeper(sweepDeps(), { graceMs: 5_000, intervalMs: 20 });
    sweeper.start();
    try {
      await eventually(() => storeEntries(files()), (s) => !s.temps.includes(temp.tempKey), 'the old temporary');
    } finally {
      await sweeper.stop();
    }
  });

  test('several sweeps at once (several processes) remove each orphan once and no document file', async () => {
    const doc = pdfOfSize(4000);
    assert.equal((await uploadTo(server, v2(), { type: 'OTHER' }, doc)).status, 201);
    const orphans = await Promise.all(Array.from({ length: 10 }, async () => {
      const s = await files().stage(Readable.from([pdfOfSize(4000)]));
      await files().publish(s);
      return s.sha256;
    }));
    const results = await Promise.all([1, 2, 3].map(() => sweepOrphanFiles(sweepDeps(), { graceMs: 0 })));
    assert.ok(results.reduce((n, r) => n + r.files, 0) >= 10);
    const store = await storeEntries(files());
    assert.ok(store.files.includes(sha256(doc)));
    for (const o of orphans) assert.ok(!store.files.includes(o));
  });

  test('a sweep never removes the file of an upload whose row is about to commit (PostgreSQL)', async (t) => {
    if (server.deps.store.kind !== 'postgres') return t.skip('needs PostgreSQL: on PGlite one transaction runs at a time, so the sweep cannot run inside an upload');
    const bytes = pdfOfSize(4000);
    // An old orphan with these very bytes, as a crash would leave it.
    const orphan = await files().stage(Readable.from([bytes]));
    await files().publish(orphan);
    age('file', orphan.sha256, 2 * 3_600_000);
    // An upload of the same bytes, held open at the end of recordDocument's transaction: hash locked, row inserted, file published.
    const staged = await files().stage(Readable.from([bytes]));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let published!: () => void;
    const atGate = new Promise<void>((r) => (published = r));
    const upload = inTransaction(server.deps.store.db, async (tx) => {
      const now = new Date();
      await insertDocument(tx, { id: newId(), partnerId: server.deps.partnerId!, customerId, type: 'OTHER', fileName: 'x.pdf', contentType: 'application/pdf', size: bytes.length, sha256: staged.sha256, createdAt: now, updatedAt: now });
      await lockFileHash(tx, staged.sha256);
      await files().publish(staged);
      published();
      await gate;
    });
    await atGate;
    const sweep = sweepOrphanFiles(sweepDeps(), { graceMs: 3_600_000, now: Date.now() + 10 * 3_600_000 });
    await new Promise((r) => setTimeout(r, 300)); // the sweep reaches the file and waits for the lock
    release();
    await upload;
    await sweep;
    assert.ok((await storeEntries(files())).files.includes(staged.sha256), 'the committed document kept its file');
  });
});
