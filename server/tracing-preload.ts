// Tracing preload: `node --import` runs it before the server when OTEL_TRACES_EXPORTER is set (scripts/node-flags.mjs adds
// it; unset or `none`, it is not loaded at all and the SDK never enters the process). It starts the OpenTelemetry Node SDK,
// configured by the standard OTEL_* variables alone, with the HTTP and pg instrumentations, and wraps embedded PGlite's
// statements in spans of its own (PGlite has no instrumentation). It must run before the server's modules are imported:
// instrumentations patch `http` and `pg` as they are loaded.
import { createRequire } from 'node:module';
import type { Span, Tracer } from '@opentelemetry/api';

const exporters = (process.env.OTEL_TRACES_EXPORTER ?? '').split(',').map((s) => s.trim()).filter((s) => s && s !== 'none');

if (exporters.length) {
  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }, api] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/api'),
  ]);
  const sdk = new NodeSDK({
    // The service's name unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) says another.
    ...(process.env.OTEL_SERVICE_NAME || /(^|,)\s*service\.name=/.test(process.env.OTEL_RESOURCE_ATTRIBUTES ?? '') ? {} : { serviceName: 'ramp' }),
    instrumentations: [
      new HttpInstrumentation({
        // The trace exporter's own posts are not traced (each would make another to send).
        ignoreOutgoingRequestHook: (req) => /\/v1\/(traces|metrics|logs)$/.test(String(req.path ?? '')),
      }),
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  // The instrumentations patch a module when it is required. The server imports `http` and `pg` as ES modules (the bundle
  // keeps packages external), which no require hook sees: requiring them here patches the very objects it then imports
  // (a builtin's exports, pg's CommonJS module from the require cache), so its server, webhook posts and queries are traced.
  const require = createRequire(import.meta.url);
  for (const name of ['http', 'https', 'pg']) {
    try {
      require(name);
    } catch {
      // pg is there in any install; nothing to patch otherwise.
    }
  }
  await tracePglite(api.trace.getTracer('ramp.pglite'), api.SpanKind.CLIENT, api.SpanStatusCode.ERROR);
  // The server sees tracing through this flag (server/tracing.ts): span names by route, trace ids on log lines.
  (globalThis as Record<symbol, unknown>)[Symbol.for('ramp.tracing')] = true;
  // The batch processor holds spans up to OTEL_BSP_SCHEDULE_DELAY: flushed when the process ends on a signal.
  const flush = () => void sdk.shutdown().catch(() => undefined);
  process.once('SIGTERM', flush);
  process.once('SIGINT', flush);
}

/**
 * A span per PGlite statement (query, exec) and one around a transaction with its statements beneath, named and
 * described as the pg instrumentation describes PostgreSQL's: `db.system.name`, the statement's text with its `$n`
 * placeholders (the values are never recorded).
 */
async function tracePglite(tracer: Tracer, kind: number, error: number): Promise<void> {
  let PGlite: { prototype: Record<string, unknown> };
  try {
    ({ PGlite } = (await import('@electric-sql/pglite')) as unknown as { PGlite: { prototype: Record<string, unknown> } });
  } catch {
    return;
  }
  const operation = (text: string) => /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
  const traced = <T>(name: string, text: string | undefined, run: () => Promise<T>): Promise<T> =>
    tracer.startActiveSpan(name, { kind, attributes: { 'db.system.name': 'postgresql', 'db.system': 'postgresql', ...(text ? { 'db.query.text': text.slice(0, 4000), 'db.operation.name': operation(text) } : {}) } }, (span: Span) =>
      run().then(
        (v) => {
          span.end();
          return v;
        },
        (err: Error & { code?: string }) => {
          span.setStatus({ code: error, message: err.code ?? err.name });
          span.end();
          throw err;
        },
      ),
    );
  const wrapStatements = (target: Record<string, unknown>) => {
    for (const method of ['query', 'exec'] as const) {
      const original = target[method] as (this: unknown, text: string, ...rest: unknown[]) => Promise<unknown>;
      if (typeof original !== 'function') continue;
      target[method] = function (this: unknown, text: string, ...rest: unknown[]) {
        return traced(`pglite.${method} ${operation(String(text))}`, String(text), () => original.call(this, text, ...rest));
      };
    }
  };
  const proto = PGlite.prototype;
  wrapStatements(proto);
  const transaction = proto.transaction as (this: unknown, fn: (tx: Record<string, unknown>) => Promise<unknown>) => Promise<unknown>;
  proto.transaction = function (this: unknown, fn: (tx: Record<string, unknown>) => Promise<unknown>) {
    return traced('pglite.transaction', undefined, () =>
      transaction.call(this, (tx) => {
        wrapStatements(tx);
        return fn(tx);
      }),
    );
  };
}
