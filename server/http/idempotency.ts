// `Idempotency-Key` on POST/PATCH: the first request with a key runs, later ones with the same body get its stored answer.
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { AppError, invalid } from '../domain/errors';
import type { Clock } from '../clock';
import type { Db } from '../store/db';
import { claimKey, completeKey, readKey, releaseKey } from '../store/queries/idempotency';
import type { AppEnv } from './env';

const KEPT_HEADERS = ['content-type', 'location'];
const WAIT_STEP_MS = 25;
const WAIT_MAX_MS = 15_000;

/**
 * Only responses with an effect (2xx) are stored. A refused request changed nothing, so its key is released and
 * the client may correct the body and try again with the same key; a concurrent duplicate waits for the first
 * request to finish and then replays it, so it never causes a second effect.
 */
export function idempotency(deps: { db: Db; clock: Clock }): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined || !['POST', 'PATCH'].includes(c.req.method)) return next();
    if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
      throw invalid([{ path: 'header.Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
    }
    const partnerId = c.get('partnerId');
    const url = new URL(c.req.url);
    const isJson = /json/i.test(c.req.header('content-type') ?? '');
    // Uploads can be 50 MB: they are fingerprinted by their declared length (not the per-request boundary) rather than buffered.
    const body = isJson || !c.req.header('content-type') ? await c.req.text() : `upload:${c.req.header('content-length') ?? 'chunked'}`;
    const hash = createHash('sha256').update(`${c.req.method} ${url.pathname}${url.search}\n${body}`).digest('hex');

    const deadline = Date.now() + WAIT_MAX_MS;
    for (;;) {
      if (await claimKey(deps.db, partnerId, key, hash, deps.clock.now())) break;
      const row = await readKey(deps.db, partnerId, key);
      if (!row) continue; // released between our insert and read: try to claim again
      if (row.requestHash !== hash) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request. Use a new key for a new request.');
      }
      if (row.state === 'COMPLETE') {
        return new Response(row.responseBody, {
          status: row.responseStatus ?? 200,
          headers: { ...row.responseHeaders, 'idempotency-replayed': 'true', 'x-request-id': c.get('requestId') },
        });
      }
      if (Date.now() > deadline) {
        throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed. Retry shortly.');
      }
      await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
    }

    try {
      await next();
    } catch (err) {
      await releaseKey(deps.db, partnerId, key);
      throw err;
    }
    const res = c.res;
    if (res.status >= 200 && res.status < 300) {
      const headers: Record<string, string> = {};
      for (const h of KEPT_HEADERS) {
        const v = res.headers.get(h);
        if (v) headers[h] = v;
      }
      await completeKey(deps.db, partnerId, key, { status: res.status, headers, body: await res.clone().text() });
    } else {
      await releaseKey(deps.db, partnerId, key);
    }
  };
}
