// The selfie of <ramp-verification>'s liveness check: whether one is needed, where taking it stands, and why it did not go through.
import { NetworkError, ProblemError } from '../../client/bff-client';
import type { Customer } from '../../contract/customers';

export type Phase = 'idle' | 'starting' | 'preview' | 'captured' | 'uploading';

export type SelfieError =
  | { kind: 'denied' | 'unavailable' | 'network' | 'badType' | 'tooLarge' | 'empty' }
  | { kind: 'server'; code: string }
  | { kind: 'state' };

/** What a failed send or simulation tells the user. */
export function selfieFailure(error: unknown): SelfieError {
  if (error instanceof NetworkError) return { kind: 'network' };
  if (!(error instanceof ProblemError)) return { kind: 'server', code: 'CLIENT_ERROR' };
  if (error.status === 413) return { kind: 'tooLarge' };
  if (error.status === 415) return { kind: 'badType' };
  if (error.status === 409 || error.status === 400) return { kind: 'state' };
  return { kind: 'server', code: error.code };
}

/** A selfie is asked for while the review is open and the liveness requirement not yet sent. */
export function livenessNeeded(c: Customer | undefined): boolean {
  if (!c) return false;
  const open = c.verification.status === 'NOT_STARTED' || c.verification.status === 'TEMPORARY_REJECTION';
  return open && c.requirements.some((r) => r.name === 'LIVENESS' && r.status === 'NOT_SENT');
}
