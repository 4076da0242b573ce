// The contract check: every /v2 answer a server test receives is validated against the app's own /openapi.json with a
// strict JSON Schema 2020 validator. An undocumented status, an undocumented header or a body the schema refuses is a
// violation; `client()` in harness.ts throws on the first one, so the document cannot drift from the server.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** Headers every answer may carry without the document naming them: transport, CORS, caching and tracing. */
const GENERIC_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'vary',
  'cache-control',
  'x-content-type-options',
  'strict-transport-security',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'x-request-id',
]);

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema?: unknown }> }>;
}

export interface Contract {
  /** The violations of one answer; empty when it is what the document says. */
  check(method: string, url: string, status: number, headers: Headers, body: unknown): string[];
}

export function compileContract(doc: any): Contract {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // OpenAPI's own annotations beside JSON Schema's.
  for (const k of ['example', 'xml', 'externalDocs', 'discriminator']) ajv.addKeyword(k);
  const rewrite = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"doc#/$defs/'));
  ajv.addSchema({ $id: 'doc', $defs: rewrite(doc.components?.schemas ?? {}) });

  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<any>(doc.paths ?? {})) {
    const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      operations.push({ method: method.toUpperCase(), template, pattern, responses: op.responses ?? {} });
    }
  }
  const validators = new Map<unknown, ValidateFunction>();
  const validatorOf = (schema: unknown) => {
    let v = validators.get(schema);
    if (!v) validators.set(schema, (v = ajv.compile(rewrite(schema))));
    return v;
  };

  return {
    check(method, url, status, headers, body) {
      const path = new URL(url, 'http://x').pathname;
      const candidates = operations.filter((o) => o.pattern.test(path));
      if (!candidates.length) return [];
      const op = candidates.find((o) => o.method === method);
      const where = `${method} ${path} → ${status}`;
      if (!op) return status === 405 ? [] : [`${where}: no ${method} operation on ${candidates[0]!.template}, expected 405`];
      const response = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
      if (!response) return [`${where}: status ${status} is not documented for ${method} ${op.template}`];
      const problems: string[] = [];
      const documented = new Set(Object.keys(response.headers ?? {}).map((h) => h.toLowerCase()));
      headers.forEach((_v, name) => {
        const h = name.toLowerCase();
        if (!GENERIC_HEADERS.has(h) && !documented.has(h)) problems.push(`${where}: header ${name} is not documented`);
      });
      const type = (headers.get('content-type') ?? '').split(';')[0]!.trim();
      if (status === 204 || !type) return problems;
      const media = response.content?.[type];
      if (!media) return [...problems, `${where}: content type ${type} is not documented`];
      if (media.schema === undefined) return problems;
      const validate = validatorOf(media.schema);
      if (!validate(body)) {
        const errs = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(root)'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`);
        problems.push(`${where}: body does not match the schema: ${errs.join('; ')}`);
      }
      return problems;
    },
  };
}
