// Bearer API-key auth for /v2: the key names the partner; a missing or unknown key is a 401 problem with WWW-Authenticate.
import type { MiddlewareHandler } from 'hono';
import { AppError } from '../domain/errors';
import type { Db } from '../store/db';
import { partnerIdForKey } from '../store/queries/partners';
import type { AppEnv } from './env';

export function bearerAuth(db: Db): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!m) throw new AppError('UNAUTHENTICATED', 'Send your API key as `Authorization: Bearer sk_…`.');
    const partnerId = await partnerIdForKey(db, m[1]!);
    if (!partnerId) throw new AppError('UNAUTHENTICATED', 'The API key is not valid or was revoked.');
    c.set('partnerId', partnerId);
    await next();
  };
}
