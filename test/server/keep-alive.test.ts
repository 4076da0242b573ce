// Keep-alive after a refused body: a response sent before the request body was read to its end says `Connection: close`, and the
// server does close; a keep-alive client (Node's fetch) gets the refusal and its next request on the same agent succeeds.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { client, individual, type TestServer, startTestServer } from './harness';
import { approvedInNewPartner } from './kyc-helpers';
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
  assert.equal(res.headers.get('connection'), 'close', `${path}: a refusal sent before the body was read closes the connection`);
  const next = await fetch(`${http.base}/v2/customers?size=1`, { headers: auth() });
  assert.equal(next.status, 200, await next.text());
  return problem;
}

describe('refusals before the body is read', () => {
  test('JSON over 1 MB, declared: 413, Connection: close, and the next request succeeds', async () => {
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

  test('an upload refused before its body is read (409: no additional information yet) closes too', async () => {
    const c = await client(server, server.apiKey).post('/v2/customers', individual());
    const { body, contentType } = multipartBody({ type: 'OTHER' }, pdfOfSize(4 * MiB));
    const p = await refusedThenNext({ method: 'POST', headers: { ...auth(), 'content-type': contentType }, body: new Uint8Array(body) }, `/v2/customers/${c.body.id}/documents`, 409);
    assert.equal(p.code, 'INVALID_STATE');
  });

  test('a response the server keeps alive is one it honours: after a 413 to a slow client, it closes rather than drop the next request', async () => {
    // A raw client: headers declaring 2 MB, 1.5 MB sent, the 413 read, the rest sent after a pause, then a second request.
    const socket = net.connect(http.port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (received += d));
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    socket.on('error', () => undefined);
    await new Promise<void>((r) => socket.on('connect', () => r()));
    socket.write(`POST /v2/customers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${2 * MiB}\r\n\r\n`);
    socket.write(Buffer.alloc(1.5 * MiB, 32));
    const until = Date.now() + 5000;
    while (!/\r\n\r\n[\s\S]*\}$/.test(received) && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    assert.match(received, /^HTTP\/1\.1 413/);
    const keptAlive = !/\r\nconnection: close\r\n/i.test(received);
    await new Promise((r) => setTimeout(r, 800));
    const first = received;
    if (!socket.destroyed) {
      socket.write(Buffer.alloc(0.5 * MiB, 32));
      socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    }
    await Promise.race([closed, new Promise((r) => setTimeout(r, 1500))]);
    const answeredNext = received.length > first.length && /HTTP\/1\.1 200/.test(received.slice(first.length));
    socket.destroy();
    assert.ok(!keptAlive || answeredNext, 'the server answered keep-alive, then dropped the connection under the next request');
    assert.ok(!keptAlive, 'a 413 sent before the body was read says Connection: close');
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
