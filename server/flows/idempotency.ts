// The Idempotency-Key's own transaction: the key is claimed, the effect runs and its answer is stored in one transaction
// (both commit or neither); a duplicate waits for the first and replays its stored answer. The routes' middleware
// (http/idempotency.ts) finds the key and the request's fingerprint and hands them here.
import { sql } from 'drizzle-orm';
import { AppError } from '../domain/errors';
import type { Clock } from '../clock';
import type { SealedBox } from '../tokens';
import { type Db, inTransaction } from '../store/db';
import { claimKeyInTx, completeKey, forgetExpiredKey, type IdempotencyRow, readKey, releaseKey } from '../store/queries/idempotency';

const KEPT_HEADERS = ['content-type', 'location'];
const WAIT_STEP_MS = 25;
const WAIT_MAX_MS = 15_000;

export interface IdempotencyDeps {
  db: Db;
  clock: Clock;
  /** Stored answers are encrypted: they may carry secrets (API keys, widget tokens, webhook secrets, links). */
  answers: SealedBox;
}

/** What a stored answer is bound to: a body copied to another partner's or key's row does not open. */
export const answerContext = (partnerId: string, key: string) => JSON.stringify([partnerId, key]);

/**
 * Runs `effect` at most once per key and stores its 2xx answer with it; a refusal releases the key (see
 * http/idempotency.ts). `effect` is given the key's transaction: whatever it writes there commits with the answer.
 */
export async function runIdempotent(
  deps: IdempotencyDeps,
  request: { partnerId: string; requestId: string },
  key: string,
  hash: string,
  effect: (db: Db) => Promise<Response>,
): Promise<Response> {
  const { partnerId } = request;
  const deadline = Date.now() + WAIT_MAX_MS;
  for (;;) {
    // Keys live 24 h of wall time: a partner's sandbox clock moved a day ahead must not turn a key used a minute ago into
    // a new one (it would run its effect again); the clock moves expiries of money, not of requests.
    await forgetExpiredKey(deps.db, partnerId, key, new Date());
    type Outcome = { ran: Response } | { failed: unknown } | { found: IdempotencyRow | undefined };
    const outcome = await inTransaction(deps.db, async (tx): Promise<Outcome> => {
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
        res = await effect(db);
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
        const body = deps.answers.seal(await res.clone().text(), answerContext(partnerId, key));
        await completeKey(db, partnerId, key, { status: res.status, headers, body });
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
        // Rows from before encryption are plain and replay as they are.
        const body = row.responseBody === null ? null : deps.answers.open(row.responseBody, answerContext(partnerId, key));
        // Unreadable (the session secret changed, or the row was moved): the key was used, and running its request again could
        // repeat its effect, so it answers as a key reused, never with a 500 nor a second run.
        if (body === undefined) throw unreadable();
        return new Response(body, {
          status: row.responseStatus ?? 200,
          headers: { ...row.responseHeaders, 'idempotency-replayed': 'true', 'x-request-id': request.requestId },
        });
      }
    }
    // Released meanwhile (try again), or a claim an older version committed before its effect (wait for it to go stale).
    if (Date.now() > deadline) throw inProgress();
    if (row) await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
  }
}

const unreadable = () =>
  new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used, and its stored answer cannot be read. Use a new key for a new request.');

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
