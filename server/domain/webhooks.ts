// Webhook rules without I/O: secrets, signatures (Standard Webhooks and X-Hub-Signature), the retry schedule, and which addresses are public.
import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Webhook } from 'standardwebhooks';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (the Standard Webhooks format). */
export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The headers of one delivery. `webhook-signature` carries one `v1,<base64>` entry per valid secret (two during a rotation's
 * grace period); `X-Hub-Signature` is `sha256=<hex HMAC-SHA256 of the raw body>` keyed with the current secret's full text
 * (`whsec_…` as UTF-8).
 */
export function signDelivery(opts: { eventId: string; body: string; at: Date; secrets: string[] }): Record<string, string> {
  const [current] = opts.secrets;
  if (!current) throw new Error('no signing secret');
  const signatures = opts.secrets.map((s) => new Webhook(s).sign(opts.eventId, opts.at, opts.body));
  return {
    'webhook-id': opts.eventId,
    'webhook-timestamp': String(Math.floor(opts.at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
    'x-hub-signature': `sha256=${createHmac('sha256', current).update(opts.body).digest('hex')}`,
  };
}

/** About three days: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 20 h after the first attempt (10 attempts, ~71.6 h). */
export const PRODUCTION_SCHEDULE_S = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 72_000];
/** Sandbox: the same shape compressed to about two minutes. */
export const SANDBOX_SCHEDULE_S = [1, 2, 4, 8, 15, 30, 60];

/** Parses RAMP_WEBHOOK_SCHEDULE: comma-separated delays in seconds (decimals allowed) between attempts. */
export function parseSchedule(text: string): number[] {
  const parts = text.split(',').map((p) => p.trim());
  if (!parts.length || parts.length > 30 || parts.some((p) => !/^\d{1,7}(\.\d{1,3})?$/.test(p))) {
    throw new Error('must be 1 to 30 comma-separated delays in seconds, e.g. 5,300,1800');
  }
  return parts.map(Number);
}

/** The delay before attempt `attempt + 1` (after `attempt` failed), with ±20 % jitter; undefined when attempts are exhausted. */
export function retryDelayMs(scheduleS: readonly number[], attempt: number, random = Math.random): number | undefined {
  const base = scheduleS[attempt - 1];
  if (base === undefined) return undefined;
  return Math.round(base * 1000 * (0.8 + 0.4 * random()));
}

/** 2000::/3, IANA's global unicast: every IPv6 address outside it (IPv4-compatible ::a.b.c.d, site-local, NAT64…) is not a public host. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * True for an address a webhook may go to in production: a global unicast address by its parsed range (ipaddr.js's
 * table of special ranges: private, loopback, link-local, carrier-grade NAT, multicast, reserved, documentation,
 * benchmarking…), in any notation Node accepts. IPv6 forms that carry an IPv4 address (mapped, 6to4, Teredo, NAT64,
 * IPv4-compatible, SIIT) are refused whatever they embed: a public host has a plain address.
 */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 0 || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  return parsed.range() === 'unicast' && (parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6);
}
