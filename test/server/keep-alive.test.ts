// After a refused body: an answer sent before the request body was read to its end is read by the client, never met with a
// reset (EPIPE) while it still sends; the server reads and drops the rest within a bound (`dropLimits`), so the connection
// stays usable, and past the bound cuts it. A keep-alive client (Node's fetch) gets the refusal and its next request succeeds.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateApiKey } from '../../server/domain/api-keys';
import { dropLimits } from '../../server/http/connection';
import { spawnServer } from '../support/server-child';
import { client, individual, type TestServer, startTestServer } from './harness';
import { approvedInNewPartner, individualInfo } from './kyc-helpers';
import { listen, multipartBody, pdfOfSize, type UploadTarget, uploadTargets } from './uploads-helpers';

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

const MiB = 1024 * 1024;
const auth = () => ({ authorization: `Bearer ${server.apiKey}` });

/** A body streamed in `chunks`, pausing `pauseMs` after the first (a slow client); fetch sends it chunked. */
function slowBody(chunks: Uint8Array[], pauseMs: number) {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i === 1) await new Promise((r) => setTimeout(r, pauseMs));
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

/** The refused request, then a normal one on the same (global, keep-alive) fetch agent. */
async function refusedThenNext(init: RequestInit & { duplex?: 'half' }, path: string, status: number) {
  const res = await fetch(http.base + path, init);
  const problem = await res.json();
  assert.equal(res.status, status, JSON.stringify(problem));
  const next = await fetch(`${http.base}/v2/customers?size=1`, { headers: auth() });
  assert.equal(next.status, 200, await next.text());
  return problem;
}

describe('refusals before the body is read', () => {
  test('JSON over 1 MB, declared: 413, and the next request succeeds', async () => {
    const body = JSON.stringify(individual({ name: 'x'.repeat(2 * MiB) }));
    const p = await refusedThenNext({ method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body }, '/v2/customers', 413);
    assert.equal(p.code, 'PAYLOAD_TOO_LARGE');
  });

  test('JSON over 1 MB from a slow client, chunked: 413 and the next request succeeds', async () => {
    const body = slowBody([new Uint8Array(MiB + 500_000).fill(32), new Uint8Array(MiB).fill(32)], 800);
    await refusedThenNext({ method: 'POST', headers: { ...auth(), 'content-type': 'application/json' }, body, duplex: 'half' }, '/v2/customers', 413);
  });

  test('an upload declared over 50 MB: 413 before reading, and the next request succeeds', async () => {
    const { body, contentType } = multipartBody({ type: 'OTHER' }, pdfOfSize(51 * MiB));
    await refusedThenNext({ method: 'POST', headers: { ...auth(), 'content-type': contentType }, body: new Uint8Array(body) }, targets[0]!.path, 413);
  });

  test('an upload streamed well over 50 MB without a length, on each route: 413 and the next request succeeds', async () => {
    for (const target of targets) {
      const { body, contentType } = multipartBody({ type: 'OTHER' }, pdfOfSize(70 * MiB));
      const chunks = Array.from({ length: Math.ceil(body.length / MiB) }, (_, i) => new Uint8Array(body.subarray(i * MiB, (i + 1) * MiB)));
      await refusedThenNext(
        { method: 'POST', headers: { authorization: `Bearer ${target.token}`, 'content-type': contentType }, body: slowBody(chunks, 0), duplex: 'half' },
        target.path,
        413,
      );
    }
  });

  test('an upload refused before its body is read (409: no additional information yet): the 409 is read, and the next request succeeds', async () => {
    const c = await client(server, server.apiKey).post('/v2/customers', individual());
    const { body, contentType } = multipartBody({ type: 'OTHER' }, pdfOfSize(4 * MiB));
    const p = await refusedThenNext({ method: 'POST', headers: { ...auth(), 'content-type': contentType }, body: new Uint8Array(body) }, `/v2/customers/${c.body.id}/documents`, 409);
    assert.equal(p.code, 'INVALID_STATE');
  });

  test('a slow client refused early (413) gets its answer once its body is in, and the connection carries its next request', async () => {
    // A raw client: headers declaring 2 MB, 1.5 MB sent, a pause longer than @hono/node-server's own 500 ms clean-up, the
    // rest, then a second request on the same connection.
    const socket = net.connect(http.port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (received += d));
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    socket.on('error', () => undefined);
    await new Promise<void>((r) => socket.on('connect', () => r()));
    socket.write(`POST /v2/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${2 * MiB}\r\n\r\n`);
    socket.write(Buffer.alloc(1.5 * MiB, 32));
    await new Promise((r) => setTimeout(r, 800));
    assert.ok(!socket.destroyed, 'a client still sending within the bound is not cut');
    socket.write(Buffer.alloc(0.5 * MiB, 32));
    const until = Date.now() + 5000;
    while (!/\r\n\r\n[\s\S]*\}$/.test(received) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    assert.match(received, /^HTTP\/1\.1 413/);
    assert.doesNotMatch(received, /\r\nconnection: close\r\n/i, 'the rest of the body was dropped, and the connection kept');
    const first = received;
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const next = Date.now() + 3000;
    while (!/HTTP\/1\.1 200/.test(received.slice(first.length)) && !socket.destroyed && Date.now() < next) await new Promise((r) => setTimeout(r, 10));
    socket.destroy();
    await closed;
    assert.match(received.slice(first.length), /^HTTP\/1\.1 200/, 'the next request on the connection is answered');
  });

  test('uploads refused before their bytes are read (a key that is not one, a customer that is not there) or on their first bytes (415): every refusal is read, none is a reset', async (t) => {
    // A server process of its own: in this process the client's writes and the server's close take turns on one event loop,
    // and the reset a client meets across processes does not happen.
    const dataDir = mkdtempSync(join(tmpdir(), 'ramp-refused-'));
    t.after(() => rmSync(dataDir, { recursive: true, force: true }));
    const apiKey = generateApiKey('sandbox');
    const proc = spawnServer({ DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', RAMP_DATA_DIR: dataDir, RAMP_API_KEY: apiKey, RAMP_LOG_LEVEL: 'warn', RAMP_RATE_LIMIT_AUTH_FAILURES: '1000/60' });
    t.after(() => proc.stop());
    const base = `http://127.0.0.1:${await proc.port}`;
    const form = () => {
      const f = new FormData();
      f.set('type', 'ID_CARD');
      f.set('file', new Blob([new Uint8Array(8 * MiB)], { type: 'image/jpeg' }), 'a.jpg');
      return f;
    };
    const missing = `${base}/v2/customers/00000000-0000-7000-8000-000000000000/documents`;
    const failures: string[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      for (const authorization of [`Bearer ${apiKey}`, `Bearer sk_sandbox_${'n'.repeat(32)}`]) {
        try {
          const res = await fetch(missing, { method: 'POST', headers: { authorization }, body: form() });
          statuses.push(res.status);
          await res.text();
        } catch (err) {
          failures.push(String((err as { cause?: { code?: string } }).cause?.code ?? err));
        }
      }
    }
    // Refused on the file's first bytes (zeros are no JPEG): the parser read a little, the rest is dropped as it comes.
    const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/v2/customers`, { method: 'POST', headers, body: JSON.stringify(individual()) });
    const { id } = (await created.json()) as { id: string };
    const info = await fetch(`${base}/v2/customers/${id}/additional-information`, { method: 'PATCH', headers, body: JSON.stringify(individualInfo()) });
    assert.equal(info.status, 200, await info.text());
    // The client sends the first 64 KiB, pauses longer than @hono/node-server's own 500 ms clean-up, then the rest: refused mid-way.
    const { body: zeros, contentType } = multipartBody({ type: 'BANK_STATEMENT' }, Buffer.alloc(8 * MiB));
    const chunks = [zeros.subarray(0, 64 * 1024), ...Array.from({ length: 8 }, (_, k) => zeros.subarray(64 * 1024 + k * MiB, 64 * 1024 + (k + 1) * MiB))];
    chunks.push(zeros.subarray(64 * 1024 + 8 * MiB));
    for (let i = 0; i < 5; i++) {
      try {
        const init = { method: 'POST', headers: { authorization: `Bearer ${apiKey}`, 'content-type': contentType }, body: slowBody(chunks, 800), duplex: 'half' };
        const res = await fetch(`${base}/v2/customers/${id}/documents`, init as RequestInit);
        statuses.push(res.status);
        await res.text();
      } catch (err) {
        failures.push(String((err as { cause?: { code?: string } }).cause?.code ?? err));
      }
    }
    assert.deepEqual(failures, [], 'no refusal reached the client as a reset');
    assert.deepEqual([...new Set(statuses)].sort(), [401, 404, 415]);
  });

  test('past the bound, a client that goes on sending is cut: the server does not read forever', async () => {
    const saved = { ...dropLimits };
    dropLimits.bytes = 2 * MiB;
    try {
      const socket = net.connect(http.port, '127.0.0.1');
      let received = '';
      socket.setEncoding('latin1');
      socket.on('data', (d: string) => (received += d));
      socket.on('error', () => undefined);
      const closed = new Promise<void>((r) => socket.on('close', () => r()));
      await new Promise<void>((r) => socket.on('connect', () => r()));
      socket.write(`POST /v2/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.apiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
      let sent = 0;
      const chunk = Buffer.alloc(256 * 1024, 32);
      while (!socket.destroyed && sent < 8 * MiB) {
        socket.write(`${chunk.length.toString(16)}\r\n`);
        socket.write(chunk);
        socket.write('\r\n');
        sent += chunk.length;
        await new Promise((r) => setTimeout(r, 5));
      }
      await Promise.race([closed, new Promise((r) => setTimeout(r, 5000))]);
      assert.match(received, /^HTTP\/1\.1 413/, 'the refusal was sent');
      assert.ok(socket.destroyed || socket.readyState === 'closed', 'the connection was cut');
      socket.destroy();
    } finally {
      Object.assign(dropLimits, saved);
    }
  });
});

describe('a JSON body cut off mid-stream', () => {
  test('an on-ramp whose client goes away halfway through its body books nothing and leaves its Idempotency-Key free; the server goes on', async () => {
    const c = await approvedInNewPartner(server);
    const key = `cut-${Date.now()}`;
    const body = JSON.stringify({ customerId: c.id, purpose: 'INVESTMENT', rail: 'PIX', sourceCurrency: 'BRL', targetCurrency: 'USDC', sourceAmount: '10.00' });
    for (const chunked of [false, true]) {
      const socket = net.connect(http.port, '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise<void>((r) => socket.on('connect', () => r()));
      const length = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${Buffer.byteLength(body)}`;
      socket.write(`POST /v2/transactions/on-ramp HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${c.apiKey}\r\nContent-Type: application/json\r\nIdempotency-Key: ${key}\r\n${length}\r\n\r\n`);
      const half = body.slice(0, Math.floor(body.length / 2));
      socket.write(chunked ? `${Buffer.byteLength(half).toString(16)}\r\n${half}\r\n` : half);
      await new Promise((r) => setTimeout(r, 200));
      socket.destroy();
    }
    await new Promise((r) => setTimeout(r, 300));
    const none = await c.api.get(`/v2/transactions?customerId=${c.id}`);
    assert.equal(none.status, 200, none.text);
    assert.deepEqual(none.body.data, [], 'nothing booked by a body that never arrived');
    // The same key with the whole body: created once, as if the cut requests had never been.
    const whole = await c.api.post('/v2/transactions/on-ramp', JSON.parse(body), { 'idempotency-key': key });
    assert.equal(whole.status, 201, whole.text);
    const one = await c.api.get(`/v2/transactions?customerId=${c.id}`);
    assert.equal(one.body.data.length, 1);
  });
});
