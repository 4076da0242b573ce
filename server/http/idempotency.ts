// `Idempotency-Key` on POST/PATCH: the first request with a key runs, later ones with the same body get its stored answer.
import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { invalid } from '../domain/errors';
import { answerContext, type IdempotencyDeps, runIdempotent } from '../flows/idempotency';
import type { Db } from '../deps';
import type { AppEnv } from './env';

export { answerContext };

const keyOf = (c: Context<AppEnv>): string | undefined => {
  const key = c.req.header('idempotency-key');
  if (key === undefined || !['POST', 'PATCH'].includes(c.req.method)) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    throw invalid([{ path: 'header.Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters', code: 'INVALID_FORMAT' }]);
  }
  return key;
};

const hashOf = (c: Context<AppEnv>, body: string): string => {
  const url = new URL(c.req.url);
  return createHash('sha256').update(`${c.req.method} ${url.pathname}${url.search}\n${body}`).digest('hex');
};

const requestOf = (c: Context<AppEnv>) => ({ partnerId: c.get('partnerId'), requestId: c.get('requestId') });

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
    c.set('db', deps.db);
    const key = keyOf(c);
    return key === undefined || isUpload(c) ? next() : keyed(c, next, key);
  };
  async function keyed(c: Context<AppEnv>, next: Next, key: string) {
    const hash = hashOf(c, await c.req.text());
    const res = await runIdempotent(deps, requestOf(c), key, hash, async (tx) => {
      c.set('db', tx);
      try {
        await next();
      } finally {
        c.set('db', deps.db);
      }
      return c.res;
    });
    if (res !== c.res) return res;
  }
}

/**
 * Idempotency for a multipart upload, once its bytes have been read: `sha256` is the file's digest (computed
 * while streaming), `fields` the form fields. `effect` writes through the database it is given (the key's transaction).
 * Without an Idempotency-Key it just runs `effect` on `deps.db`.
 */
export async function idempotentUpload(
  c: Context<AppEnv>,
  deps: IdempotencyDeps,
  upload: { sha256: string | undefined; fields: Record<string, string> },
  effect: (db: Db) => Promise<Response>,
): Promise<Response> {
  const key = keyOf(c);
  if (key === undefined) return effect(deps.db);
  const fields = Object.keys(upload.fields)
    .sort()
    .map((k) => [k, upload.fields[k]]);
  return runIdempotent(deps, requestOf(c), key, hashOf(c, JSON.stringify({ upload: upload.sha256 ?? null, fields })), effect);
}
