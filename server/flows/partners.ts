// Partners: who an API key belongs to, the partner record, and the partner's own clock (sandbox time runs per partner).
import type { Clock } from '../clock';
import { notFound } from '../domain/errors';
import type { Db } from '../store/db';
import { knownPartnerClockOffset, partnerClockOffset } from '../store/queries/partner-clocks';
import { getPartner, partnerIdForKey } from '../store/queries/partners';

/** The partner an API key belongs to; undefined for an unknown or revoked key. */
export const partnerForApiKey = (db: Db, key: string): Promise<string | undefined> => partnerIdForKey(db, key);

/** The partner's record; a partner gone since its key was checked is 404. */
export async function readPartner(db: Db, partnerId: string): Promise<{ id: string; name: string; createdAt: Date }> {
  const row = await getPartner(db, partnerId);
  if (!row) throw notFound('Partner');
  return row;
}

/** The partner's sandbox clock offset in ms, as kept in the database (read at most once a second per partner and process). */
export const partnerClockOffsetMs = (db: Db, partnerId: string): Promise<number> => partnerClockOffset(db, partnerId);

/** Runs `fn` on the partner's sandbox clock; an offset read within the last second is used without a promise (most requests). */
export function onPartnerClock<T>(db: Db, clock: Clock, partnerId: string, fn: () => Promise<T>): Promise<T> {
  const known = knownPartnerClockOffset(partnerId);
  if (known !== undefined) return clock.within(known, fn);
  return partnerClockOffset(db, partnerId).then((offset) => clock.within(offset, fn));
}
