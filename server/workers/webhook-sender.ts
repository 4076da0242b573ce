// The outside world of webhooks: one HTTP POST to a partner's URL, with a per-attempt timeout. In production the host is
// resolved here and every address checked (public only); the connection then goes to the checked address (no DNS rebinding).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from '../domain/webhooks';

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface WebhookSender {
  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
}

export class UnsafeAddressError extends Error {
  override name = 'UnsafeAddressError';
}

/** A DNS lookup that refuses a name when any of its addresses is not public. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as unknown as LookupAddress[];
    const bad = list.find((a) => !isPublicAddress(a.address));
    if (!list.length || bad) return callback(new UnsafeAddressError(`${hostname} resolves to a non-public address`), '', 0);
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};

/** Resolves a URL's host and checks every address (production, at creation): throws UnsafeAddressError. */
export async function assertPublicUrl(url: string): Promise<void> {
  const u = new URL(url);
  if (u.protocol !== 'https:') throw new UnsafeAddressError('must be an https URL');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (!isPublicAddress(host)) throw new UnsafeAddressError('must not point to a private, loopback or link-local address');
    return;
  }
  await new Promise<void>((resolve, reject) =>
    publicOnlyLookup(host, { all: true }, (err) => (err ? reject(err instanceof UnsafeAddressError ? new UnsafeAddressError('must not resolve to a private, loopback or link-local address') : new UnsafeAddressError('host name does not resolve')) : resolve())),
  );
}

export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly opts: { timeoutMs: number; publicOnly: boolean }) {}

  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult> {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null): SendResult => ({ statusCode, error, durationMs: Math.round(performance.now() - started) });
    return new Promise((resolve) => {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return resolve(done(null, 'invalid URL'));
      }
      if (this.opts.publicOnly) {
        if (u.protocol !== 'https:') return resolve(done(null, 'refused: not an https URL'));
        const host = u.hostname.replace(/^\[|\]$/g, '');
        if (isIP(host) && !isPublicAddress(host)) return resolve(done(null, 'refused: non-public address'));
      }
      const mod = u.protocol === 'https:' ? https : http;
      let settled = false;
      const finish = (r: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const req = mod.request(
        u,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'Ramp-Webhooks/1', 'content-length': Buffer.byteLength(body), ...headers },
          lookup: this.opts.publicOnly ? publicOnlyLookup : undefined,
          agent: false,
        },
        (res) => {
          // Read (and drop) at most 64 kB of the answer; only its status matters.
          let seen = 0;
          res.on('data', (chunk: Buffer) => {
            seen += chunk.length;
            if (seen > 65_536) res.destroy();
          });
          res.on('end', () => finish(done(res.statusCode ?? null, null)));
          res.on('error', () => finish(done(res.statusCode ?? null, null)));
          res.on('close', () => finish(done(res.statusCode ?? null, null)));
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        finish(done(null, `timeout after ${this.opts.timeoutMs} ms`));
      }, this.opts.timeoutMs);
      req.on('error', (err: Error & { code?: string }) => {
        const reason = err instanceof UnsafeAddressError ? `refused: ${err.message}` : `${err.code ?? err.name}: ${err.message}`.slice(0, 300);
        finish(done(null, reason));
      });
      req.end(body);
    });
  }
}
