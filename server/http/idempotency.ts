// `Idempotency-Key` on POST/PATCH: the first request with a key runs, later ones with the same body get its stored answer.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { AppError, invalid } from '../domain/errors';
import type { Clock } from '../clock';
import { type Db, withTransaction } from '../store/db';
import { claimKeyInTx, completeKey, forgetExpiredKey, type IdempotencyRow, readKey, releaseKey } from '../store/queries/idempotency';
import type { AppEnv } from './env';

const KEPT_HEADERS = ['content-type', 'location'];
const WAIT_STEP_MS = 25;
const WAIT_MAX_MS = 15_000;

interface IdempotencyDeps {
  db: Db;
  clock: Clock;
}

const keyOf = (c: Context<AppEnv>): string | undefined => {
  const key = c.req.header('idempotency-key');
  if (key === undefined || !['POST', 'PATCH'].includes(c.req.method)) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw invalid([{ path: 'header.Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
  }
  return key;
};

const hashOf = (c: Context<AppEnv>, body: string): string => {
  const url = new URL(c.req.url);
  return createHash('sha256').update(`${c.req.method} ${url.pathname}${url.search}\n${body}`).digest('hex');
};

const isUpload = (c: Context<AppEnv>) => /^multipart\//i.test(c.req.header('content-type') ?? '');

/**
 * Only responses with an effect (2xx) are stored. A refused request changed nothing, so its key is released and
 * the client may correct the body and try again with the same key; a concurrent duplicate waits for the first
 * request to finish and then replays it, so it never causes a second effect.
 *
 * The effect runs inside one transaction that also claims the key and stores the response: either both commit
 * or neither does, so a crash or a database error between them can never leave an effect without its answer.
 * Uploads are fingerprinted by their bytes, which are only known once streamed: their route calls
 * `idempotentUpload` around the effect.
 */
export function idempotency(deps: IdempotencyDeps): MiddlewareHandler<AppEnv> {
  // Without a key (every read) the request goes straight on, with no async frame of its own.
  return (c, next) => {
    const key = keyOf(c);
    return key === undefined || isUpload(c) ? next() : keyed(c, next, key);
  };
  async function keyed(c: Context<AppEnv>, next: Next, key: string) {
    const hash = hashOf(c, await c.req.text());
    const res = await runIdempotent(deps, c, key, hash, async () => {
      await next();
      return c.res;
    });
    if (res !== c.res) return res;
  }
}

/**
 * Idempotency for a multipart upload, once its bytes have been read: `sha256` is the file's digest (computed
 * while streaming), `fields` the form fields. Without an Idempotency-Key it just runs `effect`.
 */
export async function idempotentUpload(
  c: Context<AppEnv>,
  deps: IdempotencyDeps,
  upload: { sha256: string | undefined; fields: Record<string, string> },
  effect: () => Promise<Response>,
): Promise<Response> {
  const key = keyOf(c);
  if (key === undefined) return effect();
  const fields = Object.keys(upload.fields)
    .sort()
    .map((k) => [k, upload.fields[k]]);
  return runIdempotent(deps, c, key, hashOf(c, JSON.stringify({ upload: upload.sha256 ?? null, fields })), effect);
}

async function runIdempotent(deps: IdempotencyDeps, c: Context<AppEnv>, key: string, hash: string, effect: () => Promise<Response>): Promise<Response> {
  const partnerId = c.get('partnerId');
  const deadline = Date.now() + WAIT_MAX_MS;
  for (;;) {
    // Keys live 24 h of wall time: a partner's sandbox clock moved a day ahead must not turn a key used a minute ago into
    // a new one (it would run its effect again); the clock moves expiries of money, not of requests.
    await forgetExpiredKey(deps.db, partnerId, key, new Date());
    type Outcome = { ran: Response } | { failed: unknown } | { found: IdempotencyRow | undefined };
    const outcome = await withTransaction(deps.db, async (tx): Promise<Outcome> => {
      const db = tx as unknown as Db;
      let claimed: boolean;
      try {
        // Waits at most WAIT_MAX_MS for a duplicate in flight to commit or roll back its claim.
        const [saved] = rowsOf<{ prev: string }>(
          await db.execute(sql`SELECT current_setting('lock_timeout') AS prev, set_config('lock_timeout', ${`${WAIT_MAX_MS}ms`}, true)`),
        );
        claimed = await claimKeyInTx(db, partnerId, key, hash, new Date());
        await db.execute(sql`SELECT set_config('lock_timeout', ${saved?.prev ?? '0'}, true)`);
      } catch (err) {
        if (['55P03', '57014'].includes(sqlStateOf(err) ?? '')) throw inProgress();
        throw err;
      }
      if (!claimed) return { found: await readKey(db, partnerId, key) };
      let res: Response;
      try {
        res = await effect();
      } catch (err) {
        // Refused: what the request did stays as it was without a key; only the claim goes. If the
        // transaction itself failed, it rolls back, the claim with it.
        try {
          await releaseKey(db, partnerId, key);
        } catch {
          throw err;
        }
        return { failed: err };
      }
      if (res.status >= 200 && res.status < 300) {
        const headers: Record<string, string> = {};
        for (const h of KEPT_HEADERS) {
          const v = res.headers.get(h);
          if (v) headers[h] = v;
        }
        await completeKey(db, partnerId, key, { status: res.status, headers, body: await res.clone().text() });
      } else {
        await releaseKey(db, partnerId, key);
      }
      return { ran: res };
    });
    if ('ran' in outcome) return outcome.ran;
    if ('failed' in outcome) throw outcome.failed;
    const row = outcome.found;
    if (row) {
      if (row.requestHash !== hash) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request. Use a new key for a new request.');
      }
      if (row.state === 'COMPLETE') {
        return new Response(row.responseBody, {
          status: row.responseStatus ?? 200,
          headers: { ...row.responseHeaders, 'idempotency-replayed': 'true', 'x-request-id': c.get('requestId') },
        });
      }
    }
    // Released meanwhile (try again), or a claim an older version committed before its effect (wait for it to go stale).
    if (Date.now() > deadline) throw inProgress();
    if (row) await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
  }
}

const inProgress = () => new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed. Retry shortly.');

function sqlStateOf(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

function rowsOf<T>(res: unknown): T[] {
  return ((res as { rows?: T[] }).rows ?? (res as T[])) as T[];
}
