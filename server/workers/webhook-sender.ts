// The outside world of webhooks: one HTTP POST to a partner's URL, with a per-attempt timeout. In production the host is
// resolved here and every address checked (public only); the connection then goes to the checked address (no DNS rebinding).
// In sandbox any address may be a target (a developer's localhost receiver), but why a delivery to a non-public address
// failed is not told: the deliveries log of a shared sandbox must not map the ports of the network it runs in.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress } from '../domain/webhooks';
import { assertPublicUrl, publicOnlyLookup, UnsafeAddressError } from '../providers/public-address';

export interface SendResult {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface WebhookSender {
  send(url: string, body: string, headers: Record<string, string>): Promise<SendResult>;
}

// Still answered here: the webhook tests check the sender's own guard under this name.
export { assertPublicUrl, publicOnlyLookup, UnsafeAddressError };

/** The error of a failed delivery to a non-public address, whatever happened (refused, reset, timed out). */
export const NON_PUBLIC_FAILURE = 'no answer from a non-public address (the reason is given for public addresses only)';

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
      const host = u.hostname.replace(/^\[|\]$/g, '');
      // The address connected to: the literal, or what the name resolved to (the socket's lookup).
      let address: string | undefined = isIP(host) ? host : undefined;
      let settled = false;
      const finish = (r: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const untold = r.error !== null && !this.opts.publicOnly && address !== undefined && !isPublicAddress(address);
        resolve(untold ? { ...r, error: NON_PUBLIC_FAILURE } : r);
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
      req.on('socket', (socket) => socket.once('lookup', (_err: Error | null, resolved: string) => (address = resolved)));
      const timer = setTimeout(() => {
        req.destroy();
        finish(done(null, `timeout after ${this.opts.timeoutMs} ms`));
      }, this.opts.timeoutMs);
      req.on('error', (err: Error & { code?: string; address?: string }) => {
        address ??= err.address;
        const reason = err instanceof UnsafeAddressError ? `refused: ${err.message}` : `${err.code ?? err.name}: ${err.message}`.slice(0, 300);
        finish(done(null, reason));
      });
      req.end(body);
    });
  }
}
