// A full disk (ENOSPC) under an upload: 507 INSUFFICIENT_STORAGE with Retry-After on every upload route, nothing stored,
// the service still serving; /readyz reports the storage full (and stays ready) until a write succeeds again (issue 33 item 5).
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import { LocalFileStore, type StagedFile } from '../../server/store/file-store';
import { client, type TestServer, startTestServer } from './harness';
import { pdfOfSize, storeEntries, type UploadTarget, uploadTargets, uploadTo } from './uploads-helpers';

/** The real store over a disk that can be made full: its writes then fail as the kernel's do. */
class FillableStore extends LocalFileStore {
  diskFull = false;
  protected override stageNow(source: Readable): Promise<StagedFile> {
    if (this.diskFull) {
      source.resume();
      return Promise.reject(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' }));
    }
    return super.stageNow(source);
  }
}

let server: TestServer;
let files: FillableStore;
let targets: UploadTarget[];
before(async () => {
  server = await startTestServer({}, { files: (dir) => (files = new FillableStore(dir)) });
  targets = (await uploadTargets(server)).targets;
});
after(() => server.close());

test('every upload route answers 507 with Retry-After while the disk is full, and 201 again once it has room', async () => {
  files.diskFull = true;
  for (const target of targets) {
    const res = await uploadTo(server, target, { type: 'OTHER' }, pdfOfSize(2048));
    assert.equal(res.status, 507, `${target.route}: ${res.text}`);
    assert.equal(res.body.code, 'INSUFFICIENT_STORAGE');
  }
  const raw = await server.app.request(targets[0]!.path, { method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'multipart/form-data; boundary=x' }, body: '--x\r\nContent-Disposition: form-data; name="type"\r\n\r\nOTHER\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 x\r\n--x--\r\n' });
  assert.equal(raw.status, 507);
  assert.equal(raw.headers.get('retry-after'), '60');
  assert.deepEqual(await storeEntries(files), { files: [], temps: [] }, 'nothing stored');
  // Everything else still serves, and /readyz says why uploads fail without taking the instance out.
  assert.equal((await client(server, server.apiKey).get('/v2/customers')).status, 200);
  const ready = await server.app.request('/readyz');
  assert.equal(ready.status, 200);
  const body = (await ready.json()) as { status: string; files?: { status: string; since: string } };
  assert.equal(body.status, 'ready');
  assert.equal(body.files?.status, 'full');

  files.diskFull = false;
  const ok = await uploadTo(server, targets[0]!, { type: 'OTHER' }, pdfOfSize(2048));
  assert.equal(ok.status, 201, ok.text);
  assert.equal(((await (await server.app.request('/readyz')).json()) as { files?: unknown }).files, undefined, 'cleared by a write that succeeded');
});
