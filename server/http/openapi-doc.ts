// What every /v2 operation shares, written into /openapi.json once instead of in 40 route definitions: the headers
// (Idempotency-Key, Idempotency-Replayed, X-Request-Id, WWW-Authenticate, Retry-After) and the statuses any request can
// meet (a malformed path id, a reused key, a body too large or not JSON, a rate limit, the database away).

import type { Context } from 'hono';
import { invalid } from '../domain/errors';
import { type ApiVersion, documentFor, LATEST, VERSIONS } from './versions';

type Doc = { info?: { version?: string; license?: { name: string; identifier?: string; url?: string } }; paths?: Record<string, Record<string, any>>; components?: Record<string, any> };

const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

const header = (description: string, schema: Record<string, unknown> = { type: 'string' }) => ({ description, schema });

const REQUEST_ID = header('Identifies the request in our logs; quote it when you contact support.');
const RETRY_AFTER = header('Seconds to wait before trying again.', { type: 'integer', minimum: 0 });
const REPLAYED = header('`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.', { type: 'string', enum: ['true'] });

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first request with a key runs, a repeat with the same body gets the stored answer (kept 24 h) with `Idempotency-Replayed: true`; the same key with another body is 409 IDEMPOTENCY_KEY_REUSED. Only successful answers are stored, so a refused request may be corrected and sent again under the same key.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

const RAMP_VERSION = {
  name: 'Ramp-Version',
  in: 'header',
  required: false,
  description:
    `Pins the answer to an earlier version of this API (default: the latest, ${LATEST}), written as listed (\`v2.0.0\` is refused): before 2.3.0 a customer also carries \`wallet\` and \`balances\` (its default wallet); before 2.2.0 GET /customers/{id} includes \`transactionLimits\` by default, without \`used\`/\`remaining\`; before 2.1.0 a transaction has no \`request.purpose\` nor \`receipt.targetAmount\`. INDIVIDUAL customers (2.4.0) are returned to every version. Anything else than a listed version is a 400 naming the header.`,
  schema: { type: 'string', enum: [...VERSIONS] },
};
const VERSION_ECHO = header('The API version this answer follows (the `Ramp-Version` asked for, or the latest).', { type: 'string', enum: [...VERSIONS] });

const WRITES = new Set(['post', 'patch', 'put']);
/** The writes whose `Idempotency-Key` the idempotency middleware reads. PUT (the limits) sets absolute values, so a
 * repeat leaves the same state and answers the same: no key is offered there rather than one that would be ignored. */
const KEYED = new Set(['post', 'patch']);

/** The service's code and API are not open source: the document says so instead of saying nothing. */
const LICENSE = { name: 'Proprietary: all rights reserved' };

export function decorateDocument<T extends Doc>(doc: T): T {
  if (doc.info) doc.info.license ??= LICENSE;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith('/v2/')) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const responses: Record<string, any> = (op.responses ??= {});
      const add = (status: number, description: string) => (responses[status] ??= problem(description));
      const multipart = Boolean(op.requestBody?.content?.['multipart/form-data']);
      op.parameters = [...(op.parameters ?? []).filter((p: any) => p.name !== 'Ramp-Version'), RAMP_VERSION];
      add(400, /\{[^}]+\}/.test(path) ? 'VALIDATION_FAILED: a path id is not a UUID, or `errors[]` names each bad field' : 'VALIDATION_FAILED: `errors[]` names each bad field (an unknown `Ramp-Version` too)');
      add(401, 'UNAUTHENTICATED: missing or invalid API key');
      if (KEYED.has(method)) {
        op.parameters = [...(op.parameters ?? []).filter((p: any) => p.name !== 'Idempotency-Key'), IDEMPOTENCY_KEY];
        add(409, 'IDEMPOTENCY_KEY_REUSED: the key was used with another request; IDEMPOTENCY_IN_PROGRESS: its first request is still running');
      }
      if (WRITES.has(method)) {
        if (op.requestBody) {
          add(413, multipart ? 'PAYLOAD_TOO_LARGE: the file is over 50 MiB' : 'PAYLOAD_TOO_LARGE: body over 1 MB');
          add(415, multipart ? 'UNSUPPORTED_MEDIA_TYPE: not multipart/form-data, or a file that is not JPG, PNG or PDF' : 'UNSUPPORTED_MEDIA_TYPE: body is not JSON');
        }
      }
      add(429, 'RATE_LIMITED: too many requests; wait `Retry-After` seconds');
      add(500, 'INTERNAL: a fault on our side; `requestId` identifies it in our logs');
      add(503, 'DATABASE_UNAVAILABLE: the service cannot reach its database right now; SERVICE_BUSY: every database connection of the server is in use; PSP_UNAVAILABLE: a PIX on-ramp could not reach the PSP (nothing was created). Retry after `Retry-After` seconds');
      for (const [status, response] of Object.entries(responses)) {
        const headers: Record<string, unknown> = (response.headers ??= {});
        headers['X-Request-Id'] ??= REQUEST_ID;
        headers['Ramp-Version'] ??= VERSION_ECHO;
        if (status === '401') headers['WWW-Authenticate'] ??= header('`Bearer realm="ramp"`');
        if (status === '429' || status === '503') headers['Retry-After'] ??= RETRY_AFTER;
        if (KEYED.has(method) && status.startsWith('2')) headers['Idempotency-Replayed'] ??= REPLAYED;
      }
    }
  }
  return doc;
}

/**
 * GET /openapi.json: the document of `?version=` (a listed version, as `Ramp-Version` takes it), by default the
 * latest. Each is built once. An unlisted version is a 400 naming `query.version`.
 */
export function serveDocument(build: () => Doc) {
  const built = new Map<ApiVersion, Doc>();
  return (c: Context) => {
    const asked = c.req.query('version');
    const version = (asked ?? LATEST) as ApiVersion;
    if (!(VERSIONS as readonly string[]).includes(version)) throw invalid([{ path: 'query.version', message: `must be one of ${VERSIONS.join(', ')}`, code: 'NOT_ONE_OF' }]);
    let doc = built.get(version);
    if (!doc) {
      const latest = built.get(LATEST) ?? build();
      built.set(LATEST, latest);
      built.set(version, (doc = documentFor(latest, version)));
    }
    return c.json(doc);
  };
}
