// API keys: `sk_sandbox_…` / `sk_live_…` with 192 bits of randomness; only their SHA-256 is ever stored.
import { createHash, randomBytes } from 'node:crypto';

export function generateApiKey(env: 'sandbox' | 'production'): string {
  return `sk_${env === 'production' ? 'live' : 'sandbox'}_${randomBytes(24).toString('base64url')}`;
}

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** Enough of the key to tell keys apart in a listing, never enough to use it. */
export const displayPrefix = (key: string): string => key.slice(0, key.indexOf('_', 3) + 5);
