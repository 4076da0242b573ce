// Pinned API versions: `Ramp-Version: 2.x.0` turns /v2 answers back, one step per changelog entry, newest first.
import type { Context, MiddlewareHandler, Next } from 'hono';
import { AppError } from '../domain/errors';
import { setAnswerHeader } from './answer-headers';
import type { VersionDefaults } from './env';

export const VERSIONS = ['2.0.0', '2.1.0', '2.2.0', '2.3.0', '2.4.0'] as const;
export type ApiVersion = (typeof VERSIONS)[number];
export const LATEST: ApiVersion = '2.4.0';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCustomer = (v: Json) => Array.isArray(v.wallets) && isObj(v.verification);
const isTransaction = (v: Json) => isObj(v.request) && isObj(v.state) && typeof v.type === 'string';

/**
 * One step per version: `down` turns an answer of version `from` into what the version before it answered. Steps are
 * applied from the latest down to the pinned version. `request` may rewrite the request before it is served.
 */
interface Step {
  from: ApiVersion;
  note: string;
  /** What the version did by default that the latest asks for: routes read it (`versionDefaults`). */
  defaults?: VersionDefaults;
  customer?: (c: Json) => Json;
  transaction?: (t: Json) => Json;
  /** The same change in /openapi.json's component schemas (edited in place on a copy), so a pinned document describes its answers. */
  schemas?: (schemas: Record<string, any>) => void;
}

const OLD_LIMIT = { type: 'object', properties: { max: { type: 'string' } }, required: ['max'] };

export const STEPS: Step[] = [
  {
    from: '2.4.0',
    // INDIVIDUAL customers, individual holders, CPF keys and the new relationships did not exist before 2.4.0. They are kept
    // as they are for a client pinned earlier: leaving them out would hide resources the partner created.
    note: 'INDIVIDUAL customers are returned unchanged',
  },
  {
    from: '2.3.0',
    note: '`wallet` (the default wallet) and `balances` (its balances) beside `wallets`',
    schemas: (s) => {
      const customer = s.Customer;
      customer.properties.wallet = { $ref: '#/components/schemas/Wallet', description: 'Deprecated: the default wallet (without `balances`).' };
      customer.properties.balances = { ...s.Wallet.properties.balances, description: 'Deprecated: the balances of the default wallet.' };
    },
    customer: (c) => {
      const wallets = c.wallets as Json[];
      const def = wallets.find((w) => w.isDefault) ?? wallets[0];
      if (!def) return c;
      const { balances, ...wallet } = def;
      return { ...c, wallet, ...(balances ? { balances } : {}) };
    },
  },
  {
    from: '2.2.0',
    note: '`transactionLimits` by default on GET /customers/{id}, without `used` and `remaining`',
    schemas: (s) => {
      s.TransactionLimits.properties = { single: OLD_LIMIT, daily: OLD_LIMIT, monthly: OLD_LIMIT };
    },
    defaults: { customerTransactionLimits: true },
    customer: (c) => {
      const limits = c.transactionLimits;
      if (!isObj(limits)) return c;
      const strip = (v: unknown): unknown =>
        Array.isArray(v) ? v.map(strip) : isObj(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'used' && k !== 'remaining').map(([k, x]) => [k, strip(x)])) : v;
      return { ...c, transactionLimits: strip(limits) };
    },
  },
  {
    from: '2.1.0',
    note: 'no `purpose` under `request`, no `targetAmount` in `receipt`',
    schemas: (s) => {
      for (const name of ['OnRampRequestEcho', 'OffRampRequestEcho']) {
        const echo = s[name];
        delete echo.properties.purpose;
        echo.required = echo.required.filter((r: string) => r !== 'purpose');
      }
      delete s.Transaction.properties.state.properties.receipt.properties.targetAmount;
    },
    transaction: (t) => {
      const { purpose: _purpose, ...request } = t.request as Json;
      const state = t.state as Json;
      const out: Json = { ...t, request };
      if (isObj(state.receipt)) {
        const { targetAmount: _target, ...receipt } = state.receipt;
        out.state = { ...state, receipt };
      }
      return out;
    },
  },
];

/** The steps between the latest version and `pinned` (those introduced after it), newest first. */
const STEPS_FOR = new Map(VERSIONS.map((pinned) => [pinned, STEPS.filter((s) => VERSIONS.indexOf(s.from) > VERSIONS.indexOf(pinned))]));
export const stepsFor = (pinned: ApiVersion): Step[] => STEPS_FOR.get(pinned)!;

/**
 * /openapi.json as a version answers: the latest document with each step between changed in its schemas, and
 * `info.version` the pinned one. The latest is the document itself.
 */
export function documentFor<T extends { info?: { version?: string }; components?: { schemas?: Record<string, unknown> } }>(doc: T, version: ApiVersion): T {
  const steps = stepsFor(version);
  if (!steps.length) return doc;
  const copy = structuredClone(doc);
  if (copy.info) copy.info.version = version;
  const schemas = (copy.components?.schemas ?? {}) as Record<string, any>;
  for (const s of steps) s.schemas?.(schemas);
  return copy;
}

/** Applies the steps to every customer and transaction in a body: a single resource, a page's `data`, an event's `data`. */
export function transformBody(body: unknown, steps: Step[]): unknown {
  if (!steps.length) return body;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObj(v)) return v;
    let out: Json = v;
    if (isCustomer(out)) for (const s of steps) out = s.customer?.(out) ?? out;
    else if (isTransaction(out)) for (const s of steps) out = s.transaction?.(out) ?? out;
    else if (Array.isArray(out.data) || isObj(out.data)) out = { ...out, data: walk(out.data) };
    return out;
  };
  return walk(body);
}

/**
 * The version a request asks for: the latest when absent; anything else than a listed version, written as the document
 * lists it, is a 400 naming the header (`v2.0.0` included: accepting what the document does not list hid typos).
 */
export function parseVersion(header: string | undefined): ApiVersion {
  if (header === undefined || header.trim() === '') return LATEST;
  const v = header.trim();
  if ((VERSIONS as readonly string[]).includes(v)) return v as ApiVersion;
  throw new AppError('VALIDATION_FAILED', `Ramp-Version must be one of ${VERSIONS.join(', ')}.`, { errors: [{ path: 'Ramp-Version', message: `must be one of ${VERSIONS.join(', ')}`, code: 'NOT_ONE_OF' }] });
}

/** The version an answer names: the one asked for when it is listed, else the latest (a refused header is answered so). */
export function answeredVersion(header: string | undefined): ApiVersion {
  try {
    return parseVersion(header);
  } catch {
    return LATEST;
  }
}

/** /v2 middleware: echoes the version served on every answer (problems included) and turns JSON answers back to it. */
export function apiVersions(): MiddlewareHandler {
  const pinned = async (c: Context, next: Next, version: ApiVersion, steps: Step[]) => {
    const defaults = steps.reduce<VersionDefaults | undefined>((d, s) => (s.defaults ? { ...d, ...s.defaults } : d), undefined);
    if (defaults) c.set('versionDefaults', defaults);
    await next();
    setAnswerHeader(c, 'ramp-version', version);
    if (!/^application\/json/i.test(c.res.headers.get('content-type') ?? '') || c.res.status >= 300) return;
    const body = await c.res.json();
    const headers = new Headers(c.res.headers);
    headers.delete('content-length');
    c.res = new Response(JSON.stringify(transformBody(body, steps)), { status: c.res.status, headers });
  };
  return (c, next) => {
    let version: ApiVersion;
    try {
      version = parseVersion(c.req.header('ramp-version'));
    } catch (err) {
      setAnswerHeader(c, 'ramp-version', LATEST);
      throw err;
    }
    const steps = stepsFor(version);
    if (steps.length) return pinned(c, next, version, steps);
    // The latest version (most requests): nothing to turn back, so the answer is named before it is made, and the
    // request goes on with no async frame of its own.
    setAnswerHeader(c, 'ramp-version', version);
    return next();
  };
}
