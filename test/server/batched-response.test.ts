// Answers ended in one turn of the event loop are written together at its end (server/http/batched-response.ts): still
// every answer whole, on its own connection, and a client gone before the turn ends costs the others nothing.
import assert from 'node:assert/strict';
import { type IncomingMessage, type ServerResponse, createServer, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { test } from 'node:test';
import { serverOptions } from '../../server/http/batched-response';

/** A server with batched answers, listening on a free port of 127.0.0.1. */
async function listening(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(serverOptions, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A server that holds the first `n` requests and then ends them all in one synchronous block, via `finish`. */
function holdingServer(n: number, finish: (held: { req: IncomingMessage; res: ServerResponse }[]) => void) {
  const held: { req: IncomingMessage; res: ServerResponse }[] = [];
  return listening((req, res) => {
    req.resume();
    req.on('end', () => {
      held.push({ req, res });
      if (held.length === n) finish(held);
    });
  });
}

/** One GET on a connection of its own: the status and body, or the error that ended it. */
const get = (port: number, path: string) =>
  new Promise<{ status?: number; body?: string; error?: string }>((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', (err) => resolve({ error: err.message }));
    req.end();
  });

test('answers ended in one turn are written after it, together, each whole on its own connection', async () => {
  let endedAtOnce: boolean[] = [];
  let endedAfterTurn: boolean[] = [];
  const { server, port } = await holdingServer(3, (held) => {
    for (const { req, res } of held) res.writeHead(200, { 'content-type': 'text/plain' }).end(`answer to ${req.url}`);
    endedAtOnce = held.map(({ res }) => res.writableEnded);
    // Queued after the batch's own flush (immediates run in order).
    setImmediate(() => (endedAfterTurn = held.map(({ res }) => res.writableEnded)));
  });
  try {
    const answers = await Promise.all(['/a', '/b', '/c'].map((p) => get(port, p)));
    assert.deepEqual(answers, ['/a', '/b', '/c'].map((p) => ({ status: 200, body: `answer to ${p}` })));
    assert.deepEqual(endedAtOnce, [false, false, false], 'end() wrote at once: nothing was batched');
    assert.deepEqual(endedAfterTurn, [true, true, true]);
  } finally {
    server.close();
  }
});

test('a client gone before its turn ends: the other answers of the batch still arrive, the server keeps serving', async () => {
  const { server, port } = await holdingServer(3, (held) => {
    held[1]!.req.socket.destroy();
    for (const { req, res } of held) res.writeHead(200).end(`answer to ${req.url}`);
  });
  try {
    const [a, gone, c] = await Promise.all(['/a', '/gone', '/c'].map((p) => get(port, p)));
    assert.deepEqual(a, { status: 200, body: 'answer to /a' });
    assert.ok(gone!.error, 'the dropped connection ends in an error on the client');
    assert.deepEqual(c, { status: 200, body: 'answer to /c' });
    // The server is still up, and a single request (a batch of one) is answered too.
    server.removeAllListeners('request');
    server.on('request', (_req: IncomingMessage, res: ServerResponse) => res.end('alone'));
    assert.deepEqual(await get(port, '/again'), { status: 200, body: 'alone' });
  } finally {
    server.close();
  }
});

test('pipelined requests on one connection are answered whole and in order', async () => {
  const { server, port } = await listening((req, res) => {
    // The second answer is ready first: order is still the requests'.
    const delay = req.url === '/1' ? 20 : 0;
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end(`answer to ${req.url}`), delay);
  });
  try {
    const socket = connect(port, '127.0.0.1');
    let raw = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (raw += d));
    socket.write(['/1', '/2', '/3'].map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\n\r\n`).join(''));
    await new Promise<void>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`three answers not seen: ${raw}`)), 5000);
      const check = () => (raw.match(/answer to \/\d/g) ?? []).length === 3 && (clearTimeout(deadline), resolve());
      socket.on('data', check);
    });
    socket.destroy();
    assert.deepEqual(raw.match(/answer to \/\d/g), ['answer to /1', 'answer to /2', 'answer to /3']);
    assert.equal(raw.match(/HTTP\/1\.1 200 OK/g)?.length, 3);
  } finally {
    server.close();
  }
});

test('an answer destroyed before its turn ends (a stream failing mid-answer) writes what it was ended with first', async () => {
  const { server, port } = await listening((req, res) => {
    req.resume();
    req.on('end', () => {
      // As @hono/node-server answers a response stream that failed: end with the error, then destroy.
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Error: boom');
      res.destroy();
    });
  });
  try {
    assert.deepEqual(await get(port, '/'), { status: 500, body: 'Error: boom' });
  } finally {
    server.close();
  }
});

// Differential: @hono/node-server (the version package.json pins) writes a hono app's answers through BatchedResponse
// as it writes them through node's own ServerResponse. Each kind of answer it has a path for (a cached body, a body
// read from the request, HEAD, no body, a stream, one over the socket's buffer, a stream failing before and after its
// first chunk, a throwing handler, a body the handler never read) must reach the client alike: status, headers but
// the date, body, or the error the connection ended with; and so must three requests on one keep-alive connection.
test('through @hono/node-server, every kind of answer reaches the client as with node\'s own ServerResponse', async (t) => {
  const { serve } = await import('@hono/node-server');
  const { Hono } = await import('hono');
  const big = 'x'.repeat(3 * 1024 * 1024);
  const chunks = (parts: string[], failAt?: number) => {
    let i = 0;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((r) => setTimeout(r, 5));
        if (i === failAt) return controller.error(new Error('boom'));
        if (i < parts.length) controller.enqueue(new TextEncoder().encode(parts[i++]!));
        else controller.close();
      },
    });
  };
  const app = new Hono()
    .get('/json', (c) => c.json({ ok: true, n: 1 }))
    .get('/empty', (c) => c.body(null, 204))
    .post('/echo', async (c) => c.text(`echo ${await c.req.text()}`, 201))
    .post('/unread', (c) => c.text('not read'))
    .get('/stream', (c) => c.body(chunks(['one ', 'two ', 'three']), 200, { 'content-type': 'text/plain' }))
    .get('/big', (c) => c.text(big))
    // A stream failing before its first chunk, in a Response whose body was touched (so not @hono/node-server's
    // cached answer): it answers 500 itself with `end()` and then `destroy()`.
    .get('/fails-at-once', () => {
      const res = new Response(new ReadableStream({ start: (controller) => controller.error(new Error('boom')) }));
      void res.body;
      return res;
    })
    .get('/fails-later', (c) => c.body(chunks(['one ', 'two '], 1)))
    .get('/throws', () => {
      throw new Error('handler failed');
    });
  // handleResponseError logs the failing stream: not this test's output.
  t.mock.method(console, 'error', () => undefined);
  const started = [serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', serverOptions }), serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })];
  try {
    const ports = await Promise.all(started.map((s) => new Promise<number>((resolve) => (s.listening ? resolve((s.address() as AddressInfo).port) : s.once('listening', () => resolve((s.address() as AddressInfo).port))))));
    type Outcome = { status?: number; headers?: Record<string, unknown>; body?: string; error?: boolean };
    const ask = (port: number, method: string, path: string, body?: string, agent?: import('node:http').Agent) =>
      new Promise<Outcome>((resolve) => {
        const req = request({ host: '127.0.0.1', port, method, path, agent: agent ?? false, headers: body === undefined ? {} : { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          const { date: _date, ...headers } = res.headers;
          res.on('end', () => resolve({ status: res.statusCode, headers, body: text }));
          res.on('error', () => resolve({ status: res.statusCode, headers, body: text, error: true }));
          res.on('aborted', () => resolve({ status: res.statusCode, headers, body: text, error: true }));
        });
        req.on('error', () => resolve({ error: true }));
        req.end(body);
      });
    const cases: [string, string, string?][] = [
      ['GET', '/json'],
      ['HEAD', '/json'],
      ['GET', '/empty'],
      ['POST', '/echo', 'hello'],
      ['POST', '/unread', 'y'.repeat(256 * 1024)],
      ['GET', '/stream'],
      ['GET', '/big'],
      ['GET', '/fails-at-once'],
      ['GET', '/fails-later'],
      ['GET', '/throws'],
      ['GET', '/missing'],
    ];
    for (const [method, path, body] of cases) {
      const [batched, plain] = await Promise.all(ports.map((port) => ask(port, method, path, body)));
      assert.deepEqual({ path, method, ...batched }, { path, method, ...plain });
    }
    // Three requests in turn on one keep-alive connection each.
    const { Agent } = await import('node:http');
    const sequences = await Promise.all(
      ports.map(async (port) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        const out = [await ask(port, 'GET', '/json', undefined, agent), await ask(port, 'POST', '/echo', 'again', agent), await ask(port, 'GET', '/stream', undefined, agent)];
        agent.destroy();
        return out;
      }),
    );
    assert.deepEqual(sequences[0], sequences[1]);
    assert.equal(sequences[0]![2]!.body, 'one two three');
  } finally {
    await Promise.all(started.map((s) => new Promise((resolve) => (s.close(resolve), (s as import('node:http').Server).closeAllConnections()))));
  }
});
