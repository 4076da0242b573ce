// Tracing preload: `node --import` runs it before the server when OTEL_TRACES_EXPORTER is set (scripts/node-flags.mjs adds
// it; unset or `none`, it is not loaded at all and the SDK never enters the process). It starts the OpenTelemetry Node SDK,
// configured by the standard OTEL_* variables alone, with the HTTP and pg instrumentations, and wraps embedded PGlite's
// statements in spans of its own (PGlite has no instrumentation). It must run before the server's modules are imported:
// instrumentations patch `http` and `pg` as they are loaded.
import { createRequire } from 'node:module';

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
  // The server sees tracing through this flag (server/tracing.ts): span names by route, trace ids on log lines.
  (globalThis as Record<symbol, unknown>)[Symbol.for('ramp.tracing')] = true;
  // The batch processor holds spans up to OTEL_BSP_SCHEDULE_DELAY: flushed when the process ends on a signal.
  const flush = () => void sdk.shutdown().catch(() => undefined);
  process.once('SIGTERM', flush);
  process.once('SIGINT', flush);
}

