// The BFF's typed client of the public /v2 contract (ky): in-process app.fetch by default, the network when RAMP_UPSTREAM_URL is set.
import ky, { type KyInstance } from 'ky';
import type { Customer, CreateCustomerRequest } from '../../src/contract/customers';
import type { WidgetSession } from '../../src/contract/widget-sessions';
import { AppError } from '../domain/errors';

/** A problem answered by /v2, carried unchanged to the browser. */
export class UpstreamProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(`upstream answered ${status}`);
  }
}

export interface UpstreamOptions {
  apiKey: string;
  /** Origin of another Ramp instance; when absent, `inProcess` answers. */
  upstreamUrl?: string;
  inProcess: (request: Request) => Response | Promise<Response>;
}

export class Upstream {
  private readonly http: KyInstance;

  constructor(opts: UpstreamOptions) {
    this.http = ky.create({
      prefixUrl: `${opts.upstreamUrl ?? 'http://in-process.ramp'}/v2`,
      fetch: opts.upstreamUrl ? globalThis.fetch : async (input, init) => opts.inProcess(new Request(input, init)),
      headers: { authorization: `Bearer ${opts.apiKey}` },
      retry: 0,
      timeout: 30_000,
      throwHttpErrors: false,
    });
  }

  private async call<T>(method: 'get' | 'post', path: string, opts: { json?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
    let res: Response;
    try {
      res = await this.http(path, { method, json: opts.json, headers: opts.headers });
    } catch (err) {
      throw new AppError('UPSTREAM_UNAVAILABLE', `The Ramp service could not be reached (${(err as Error).name}).`);
    }
    const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
    if (!res.ok) throw new UpstreamProblem(res.status, body);
    return body as T;
  }

  createCustomer(body: CreateCustomerRequest, ctx: { idempotencyKey: string; requestId: string }): Promise<Customer> {
    return this.call('post', 'customers', { json: body, headers: { 'idempotency-key': ctx.idempotencyKey, 'x-request-id': ctx.requestId } });
  }

  getCustomer(id: string, ctx: { requestId: string }): Promise<Customer> {
    return this.call('get', `customers/${encodeURIComponent(id)}`, { headers: { 'x-request-id': ctx.requestId } });
  }

  createWidgetSession(
    body: { customerId?: string; allowedOrigins?: string[]; expiresIn?: number },
    ctx: { requestId: string },
  ): Promise<WidgetSession> {
    return this.call('post', 'widget-sessions', { json: body, headers: { 'x-request-id': ctx.requestId } });
  }
}
