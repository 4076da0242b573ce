// A small load generator (keep-alive http.Agent, N concurrent loops for a fixed time): requests/s and p99 in ms.
// Runs in a worker thread, so the client does not share the event loop of the server it measures.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

export async function load({ url, method = 'GET', headers = {}, body, then, connections = 32, durationMs = 2000, warmupMs = 300 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const u = new URL(url);
  const payload = body === undefined ? undefined : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const hdrs = { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}) };
  const send = (u, method, hdrs, payload) =>
    new Promise((resolve, reject) => {
      const req = http.request({ agent, host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: hdrs }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (res.statusCode >= 200 && res.statusCode < 300) resolve(text);
          else reject(new Error(`${method} ${u.pathname} answered ${res.statusCode}: ${text.slice(0, 300)}`));
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  // `then`: a second request made with the first answer's `id` (a locked quote, then the transaction that uses it): one pair.
  const one = async () => {
    const first = await send(u, method, hdrs, payload);
    if (!then) return;
    const b = Buffer.from(JSON.stringify({ ...then.body, [then.idField]: JSON.parse(first).id }));
    await send(new URL(then.url), then.method, { ...headers, 'content-type': 'application/json', 'content-length': String(b.length) }, b);
  };
  const latencies = [];
  let measuring = false;
  let stop = false;
  const loops = Array.from({ length: connections }, async () => {
    while (!stop) {
      const t0 = performance.now();
      await one();
      if (measuring) latencies.push(performance.now() - t0);
    }
  });
  await new Promise((r) => setTimeout(r, warmupMs));
  measuring = true;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, durationMs));
  measuring = false;
  const elapsed = performance.now() - started;
  stop = true;
  await Promise.all(loops);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / (elapsed / 1000), p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0, n: latencies.length };
}

if (parentPort && workerData) {
  load(workerData).then(
    (r) => parentPort.postMessage({ ok: true, ...r }),
    (err) => parentPort.postMessage({ ok: false, error: String(err?.message ?? err) }),
  );
}
