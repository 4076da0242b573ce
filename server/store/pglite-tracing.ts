// Spans for the embedded database, described as the pg instrumentation describes PostgreSQL's (`db.system.name`, the
// statement's text with its `$n` placeholders, never the values): a span per statement and one around a transaction with
// its statements beneath. A Proxy over this process's own client, only when tracing is on.
import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { tracingOn } from '../tracing';

const operation = (text: string) => /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'SQL';

function traced<T>(name: string, text: string | undefined, run: () => Promise<T>): Promise<T> {
  const attributes = { 'db.system.name': 'postgresql', 'db.system': 'postgresql', ...(text ? { 'db.query.text': text.slice(0, 4000), 'db.operation.name': operation(text) } : {}) };
  return trace.getTracer('ramp.pglite').startActiveSpan(name, { kind: SpanKind.CLIENT, attributes }, (span: Span) =>
    run().then(
      (v) => {
        span.end();
        return v;
      },
      (err: Error & { code?: string }) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: err.code ?? err.name });
        span.end();
        throw err;
      },
    ),
  );
}

/** `client` itself when tracing is off; else a view of it whose statements and transactions are spans. */
export function tracedPglite<T extends object>(client: T): T {
  if (!tracingOn()) return client;
  return new Proxy(client, {
    get(t, prop) {
      const v = Reflect.get(t, prop, t) as unknown;
      if (typeof v !== 'function') return v;
      const fn = v as (...a: unknown[]) => Promise<unknown>;
      if (prop === 'query' || prop === 'exec') return (text: string, ...rest: unknown[]) => traced(`pglite.${prop} ${operation(String(text))}`, String(text), () => fn.call(t, text, ...rest));
      if (prop !== 'transaction') return fn.bind(t);
      return (body: (tx: object) => unknown) => traced('pglite.transaction', undefined, () => fn.call(t, (tx: object) => body(tracedPglite(tx))));
    },
  });
}
