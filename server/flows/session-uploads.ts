// The upload budget of a line of widget sessions (an onboarding session and the session of the customer it created):
// RAMP_MAX_UPLOAD_BYTES_PER_SESSION, or RAMP_MAX_UPLOAD_BYTES_PER_ANONYMOUS_SESSION for a line an anonymous visitor began.
// Counted in the database, so every process and every new customer of the line spends the same budget.
import { AppError } from '../domain/errors';
import type { Deps } from '../deps';
import { releaseSessionUpload, reserveSessionUpload, sessionUploadBytes } from '../store/queries/session-uploads';
import type { WidgetSessionClaims } from '../tokens';

/** A line is counted until its longest session could still upload, and a little after. */
const KEEP_MS = 3_600_000;

export function sessionUploadBudget(deps: Pick<Deps, 'store' | 'config' | 'clock'>) {
  const { db } = deps.store;
  return {
    /**
     * Reserves what an upload declares (no length: as much of `largest` as the line has left), or throws 409
     * DOCUMENT_QUOTA_EXCEEDED; `giveBack` returns bytes the upload did not use.
     */
    async reserve(session: WidgetSessionClaims, declared: number | undefined, largest: number) {
      const limit = session.anonymous ? deps.config.RAMP_MAX_UPLOAD_BYTES_PER_ANONYMOUS_SESSION : deps.config.RAMP_MAX_UPLOAD_BYTES_PER_SESSION;
      const now = deps.clock.now();
      const line = { lineage: session.lineage, partnerId: session.partnerId, expiresAt: new Date(Math.max(session.expiresAt.getTime(), now.getTime()) + KEEP_MS) };
      const bytes = declared ?? Math.max(Math.min(largest, limit - (await sessionUploadBytes(db, session.lineage))), 1);
      const counted = await reserveSessionUpload(db, line, bytes, limit, now);
      if (counted === undefined) {
        const used = await sessionUploadBytes(db, session.lineage);
        throw new AppError(
          'DOCUMENT_QUOTA_EXCEEDED',
          `This widget session has uploaded ${used} bytes of its budget of ${limit}; this upload (${bytes} bytes) does not fit. Ask the partner to continue.`,
          { extra: { limit: { bytes: limit }, used: { bytes: used }, scope: 'session' } },
        );
      }
      return { reserved: bytes, giveBack: (unused: number) => (unused > 0 ? releaseSessionUpload(db, session.lineage, unused) : Promise.resolve()) };
    },
  };
}
