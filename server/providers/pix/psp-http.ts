// The one HTTP client every PSP call goes through: mutual TLS on a dedicated agent, OAuth 2 client credentials (token
// cached until shortly before it expires, renewed once on a 401), a timeout on every call, and the answer mapped to
// "unreachable, retry later" (PspUnavailableError) or "refused" (PspRefusedError).
import { Agent, request } from 'node:https';
import { PspRefusedError, PspUnavailableError } from '../../domain/pix/pix-psp';

export interface PspHttpOptions {
  /** The API base, version included (`https://pix.example.com/v2`). */
  baseUrl: string;
  oauthUrl: string;
  clientId: string;
  clientSecret: string;
  /** PEM client certificate and key (mutual TLS); optional CA for the PSP's server certificate. */
  cert?: string;
  key?: string;
  ca?: string;
  timeoutMs: number;
}

export interface PspAnswer {
  status: number;
  body: unknown;
}

/** A token is renewed this long before the PSP says it expires (a call in flight must not carry a token that dies on the way). */
const TOKEN_MARGIN_MS = 60_000;

/** Statuses that mean "the PSP cannot serve this now": nothing is known, the same request may be sent again later. */
const retryable = (status: number) => status >= 500 || status === 429 || status === 408;

/** An error's first line, without any URL (a PSP URL can carry a tenant or a token). */
const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.replace(/\bhttps?:\/\/\S+/g, '<psp>').slice(0, 300);

export class PspHttp {
  private readonly agent: Agent;
  private token: { value: string; renewAt: number } | undefined;
  private pending: Promise<string> | undefined;

  constructor(private readonly o: PspHttpOptions) {
    // A dedicated agent: the client certificate is presented to the PSP and no other host; keep-alive saves a TLS
    // handshake per call.
    this.agent = new Agent({ cert: o.cert, key: o.key, ca: o.ca, keepAlive: true, maxSockets: 16, minVersion: 'TLSv1.2' });
  }

  /** One call of the API at `path` (relative to the base). A 401 renews the token and tries once more. */
  async call(method: string, path: string, opts: { body?: unknown; query?: Record<string, string> } = {}): Promise<PspAnswer> {
    const url = new URL(this.o.baseUrl + path);
    for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, v);
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken();
      const res = await this.send(method, url, { authorization: `Bearer ${token}`, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}) }, payload);
      if (res.status === 401 && attempt === 0) {
        // The token expired early or was revoked: renewed once; a second 401 means the credentials are wrong.
        if (this.token?.value === token) this.token = undefined;
        continue;
      }
      if (retryable(res.status)) throw new PspUnavailableError(`${method} ${path}: the PSP answered ${res.status}`);
      if (res.status === 401) throw new PspRefusedError(401, `${method} ${path}: the PSP refused our access token twice (check RAMP_PIX_CLIENT_ID and RAMP_PIX_CLIENT_SECRET and the scopes)`);
      return res;
    }
  }

  /** A refusal naming the API Pix problem's title, detail and violations. */
  refused(method: string, path: string, res: PspAnswer): PspRefusedError {
    const p = (res.body ?? {}) as { title?: string; detail?: string; violacoes?: { razao?: string; propriedade?: string }[]; mensagem?: string };
    const violations = Array.isArray(p.violacoes) ? p.violacoes : [];
    const why = [p.title, p.detail ?? p.mensagem, ...violations.map((v) => `${v.propriedade ?? ''} ${v.razao ?? ''}`.trim())].filter(Boolean).join('; ');
    return new PspRefusedError(res.status, `${method} ${path}: the PSP refused it (${res.status}${why ? `: ${why.slice(0, 300)}` : ''})`, violations);
  }

  /** The cached token, or a new one; concurrent callers share one request for it. */
  private async accessToken(): Promise<string> {
    if (this.token && Date.now() < this.token.renewAt) return this.token.value;
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.o.clientId}:${this.o.clientSecret}`).toString('base64');
    // RFC 6749 §4.4: client credentials, the client authenticated with HTTP Basic, the body form-encoded.
    const res = await this.send('POST', new URL(this.o.oauthUrl), { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=client_credentials');
    if (retryable(res.status)) throw new PspUnavailableError(`token: the PSP's OAuth server answered ${res.status}`);
    const body = res.body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (res.status !== 200 || typeof body?.access_token !== 'string') {
      throw new PspRefusedError(res.status, `token: the PSP's OAuth server refused our client credentials (${res.status})`);
    }
    const expiresInMs = (Number(body.expires_in) > 0 ? Number(body.expires_in) : 300) * 1000;
    // Renewed a minute early, or at half its life when it lives less than two minutes.
    const margin = Math.min(TOKEN_MARGIN_MS, expiresInMs / 2);
    this.token = { value: body.access_token, renewAt: Date.now() + expiresInMs - margin };
    return body.access_token;
  }

  private send(method: string, url: URL, headers: Record<string, string>, payload: string | undefined): Promise<PspAnswer> {
    return new Promise((resolve, reject) => {
      const req = request(url, { method, agent: this.agent, headers: { accept: 'application/json', ...headers, ...(payload !== undefined ? { 'content-length': Buffer.byteLength(payload) } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err) => reject(new PspUnavailableError(`${method} ${url.pathname}: ${describe(err)}`, { cause: err })));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      // The whole call, not just the socket's idle time: a PSP that trickles its answer is as unavailable as a silent one.
      const timer = setTimeout(() => req.destroy(new Error(`no answer in ${this.o.timeoutMs} ms`)), this.o.timeoutMs);
      req.on('close', () => clearTimeout(timer));
      req.on('error', (err) => reject(new PspUnavailableError(`${method} ${url.pathname}: ${describe(err)}`, { cause: err })));
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
