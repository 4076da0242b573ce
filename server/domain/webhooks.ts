// Webhook rules without I/O: secrets, signatures (Standard Webhooks and X-Hub-Signature), the retry schedule, and which addresses are public.
import { createHmac, randomBytes } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
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

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96], ['100::', 64],
] as const) blocked.addSubnet(net, bits, 'ipv6');

/** True for an address a webhook may go to in production: not private, loopback, link-local, multicast or reserved. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]!);
    return !blocked.check(address, 'ipv6');
  }
  return !blocked.check(address, 'ipv4');
}
