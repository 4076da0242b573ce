// An upload that ends badly (client gone mid-body, body shorter than declared, broken framing) on any of the three upload routes:
// the request fails on its own, the process keeps serving (an unhandled stream 'error' here would end this test process), and
// the file store keeps no byte of it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { type TestServer, startTestServer } from './harness';
import { abortedUpload, eventually, listen, multipartBody, pdfOfSize, sha256, storeEntries, type UploadTarget, uploadTargets, uploadTo } from './uploads-helpers';

let server: TestServer;
let http: Awaited<ReturnType<typeof listen>>;
let targets: UploadTarget[];

before(async () => {
  server = await startTestServer();
  http = await listen(server);
  targets = (await uploadTargets(server)).targets;
});
after(async () => {
  await http?.close();
  await server?.close();
});

const empty = (s: { files: string[]; temps: string[] }) => s.files.length === 0 && s.temps.length === 0;

describe('aborted uploads', () => {
  test('a client that disconnects mid-file on /v2, /bff and /verify/api takes nothing down and leaves no bytes', async () => {
    const file = pdfOfSize(600 * 1024);
    const { body, contentType } = multipartBody({ type: 'BANK_STATEMENT' }, file);
    const fileStart = body.indexOf(file.subarray(0, 16));
    for (const target of targets) {
      // In the fields, just into the file (before the type is known), deep into the file, and one byte short of the end.
      for (const cut of [40, fileStart + 100, fileStart + 300 * 1024, body.length - 1]) {
        await abortedUpload(http.port, target, body, contentType, cut);
        await eventually(() => storeEntries(server.deps.files), empty, `store after ${target.route} aborted at byte ${cut} of ${body.length}`);
      }
    }
    // Still serving, and the same bytes upload fine afterwards on every route.
    const health = await fetch(`${http.base}/healthz`);
    assert.equal(health.status, 200);
    for (const target of targets) {
      const ok = await uploadTo(server, target, { type: 'OTHER' }, file);
      assert.equal(ok.status, 201, `${target.route}: ${ok.text}`);
    }
    assert.deepEqual((await storeEntries(server.deps.files)).files, [sha256(file)]);
  });

  test('broken multipart framing is a 400 problem and leaves no bytes', async () => {
    const file = pdfOfSize(100 * 1024);
    const { body, contentType } = multipartBody({ type: 'BANK_STATEMENT' }, file);
    const truncated = body.subarray(0, body.length - 200); // the closing boundary never comes
    for (const target of targets) {
      const res = await fetch(http.base + target.path, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.token}`, 'content-type': contentType },
        body: new Uint8Array(truncated),
      });
      const problem = await res.json();
      assert.equal(res.status, 400, `${target.route}: ${JSON.stringify(problem)}`);
      assert.equal(problem.code, 'VALIDATION_FAILED');
      assert.equal(problem.errors[0].path, '(body)');
    }
    assert.ok(!(await storeEntries(server.deps.files)).files.includes(sha256(file)));
    assert.deepEqual((await storeEntries(server.deps.files)).temps, []);
  });
});

describe('aborted uploads through a pure BFF (RAMP_UPSTREAM_URL)', () => {
  test('the BFF streams the upload to the upstream; a client that disconnects takes down neither, and the upstream keeps no bytes', async () => {
    const secret = randomBytes(32).toString('hex');
    const upstream = await startTestServer({ RAMP_SESSION_SECRET: secret });
    const upstreamHttp = await listen(upstream);
    const bff = await startTestServer({ RAMP_SESSION_SECRET: secret, RAMP_API_KEY: upstream.apiKey, RAMP_UPSTREAM_URL: upstreamHttp.base });
    const bffHttp = await listen(bff);
    try {
      const bffTarget = (await uploadTargets(upstream)).targets[1]!;
      const file = pdfOfSize(800 * 1024);
      const { body, contentType } = multipartBody({ type: 'BANK_STATEMENT' }, file);
      const fileStart = body.indexOf(file.subarray(0, 16));
      for (const cut of [40, fileStart + 100, fileStart + 400 * 1024, body.length - 1]) {
        await abortedUpload(bffHttp.port, bffTarget, body, contentType, cut);
        await eventually(() => storeEntries(upstream.deps.files), empty, `upstream store after the BFF's client aborted at byte ${cut}`);
      }
      const ok = await fetch(bffHttp.base + bffTarget.path, { method: 'POST', headers: { authorization: `Bearer ${bffTarget.token}`, 'content-type': contentType }, body: new Uint8Array(body) });
      assert.equal(ok.status, 201, await ok.text());
      assert.deepEqual((await storeEntries(upstream.deps.files)).files, [sha256(file)]);
      assert.deepEqual(await storeEntries(bff.deps.files), { files: [], temps: [] }, 'a pure BFF stores nothing itself');
    } finally {
      await bffHttp.close();
      await bff.close();
      await upstreamHttp.close();
      await upstream.close();
    }
  });
});
