// Runs the rest of a request on its partner's clock: in sandbox the partner's offset is kept in the database, so every
// process agrees on a partner's time (read at most once a second per partner and process, and at once after a move made
// through this process); in production there is no offset and no query.
import type { MiddlewareHandler } from 'hono';
import { onPartnerClock } from '../flows/partners';
import type { Deps } from '../deps';

export function partnerTime(deps: Pick<Deps, 'clock' | 'config' | 'store'>): MiddlewareHandler<{ Variables: { partnerId: string } }> {
  return (c, next) => {
    const partnerId = c.get('partnerId');
    if (!deps.config.sandbox || !partnerId) return next();
    return onPartnerClock(deps.store.db, deps.clock, partnerId, next);
  };
}
