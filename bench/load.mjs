// The load generator: autocannon (pre-built requests on raw keep-alive sockets), N connections for a fixed time, after
// a short unmeasured warm-up. Answers requests/s (pairs/s when `then` chains a second request) and p99 in ms; any
// answer outside 2xx fails the run, so a bench never measures errors.
import autocannon from 'autocannon';

const run = (opts) =>
  new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });

export async function load({ url, method = 'GET', headers = {}, body, then, perConnection, connections = 32, durationMs = 2000, warmupMs = 500 }) {
  let handedOut = 0;
  /** The values this connection sends: `perConnection[i]`, i counting the connections as they first ask. */
  const connectionValues = (context) => (context.values ??= perConnection[handedOut++ % perConnection.length]);
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const hdrs = { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) };
  const u = new URL(url);
  const opts = { url: u.origin, connections, method, headers: hdrs };
  if (then) {
    // `then`: a second request made with the first answer's `id` (a locked quote, then the transaction that uses it): one pair.
    const thenPath = new URL(then.url).pathname;
    opts.requests = [
      {
        method,
        path: u.pathname + u.search,
        headers: hdrs,
        body: payload,
        // `perConnection`: each connection sends its own values of these fields (one customer per client, say).
        ...(perConnection ? { setupRequest: (req, context) => ({ ...req, body: JSON.stringify({ ...body, ...connectionValues(context) }) }) } : {}),
        onResponse: (status, text, context) => (context.id = status < 300 ? JSON.parse(text).id : undefined),
      },
      {
        method: then.method,
        path: thenPath,
        headers: { ...headers, 'content-type': 'application/json' },
        setupRequest: (req, context) => ({ ...req, body: JSON.stringify({ ...then.body, ...(perConnection ? connectionValues(context) : {}), [then.idField]: context.id }) }),
      },
    ];
  } else {
    // `perConnection` without `then`: each connection sends its own `path` (a customer per client, say) and body fields.
    const setupRequest = perConnection
      ? (req, context) => {
          const { path, ...fields } = connectionValues(context);
          return { ...req, ...(path ? { path } : {}), ...(payload && Object.keys(fields).length ? { body: JSON.stringify({ ...body, ...fields }) } : {}) };
        }
      : undefined;
    opts.requests = [{ method, path: u.pathname + u.search, headers: hdrs, body: payload, ...(setupRequest ? { setupRequest } : {}) }];
  }
  if (warmupMs > 0) await run({ ...opts, duration: warmupMs / 1000 });
  const r = await run({ ...opts, duration: durationMs / 1000 });
  if (r.non2xx > 0 || r.errors > 0) {
    const codes = Object.keys(r.statusCodeStats ?? {}).join(', ');
    throw new Error(`${method} ${u.pathname}: ${r.non2xx} answers outside 2xx (${codes}), ${r.errors} errors`);
  }
  const perUnit = then ? 2 : 1;
  return { rps: r.requests.total / perUnit / r.duration, p99: r.latency.p99, n: r.requests.total };
}
