// Tracing as the server sees it: whether the preload (server/tracing-preload.ts) started the OpenTelemetry SDK, and the
// active span's ids for log lines. Without the preload the API answers no span and nothing here costs anything.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/** True when this process runs with the tracing preload (OTEL_TRACES_EXPORTER set). */
export const tracingOn = (): boolean => (globalThis as Record<symbol, unknown>)[Symbol.for('ramp.tracing')] === true;

/** `trace_id` and `span_id` of the span active where a log line is written (a request, a job), as OpenTelemetry's log data model names them. */
export function traceFields(): { trace_id: string; span_id: string; trace_flags: string } | Record<string, never> {
  const ctx = trace.getActiveSpan()?.spanContext();
  if (!ctx) return {};
  return { trace_id: ctx.traceId, span_id: ctx.spanId, trace_flags: `0${ctx.traceFlags.toString(16)}`.slice(-2) };
}

/**
 * Runs a job inside a span of its own, `job <kind>` (the statements and calls it makes are its children, its log lines carry
 * its ids), when tracing is on; otherwise just runs it.
 */
export function inJobSpan<T>(job: { kind: string; id: string; attempts: number }, run: () => Promise<T>): Promise<T> {
  if (!tracingOn()) return run();
  const attributes = { 'ramp.job.kind': job.kind, 'ramp.job.id': job.id, 'ramp.job.attempt': job.attempts + 1 };
  return trace.getTracer('ramp').startActiveSpan(`job ${job.kind}`, { kind: SpanKind.CONSUMER, attributes }, async (span) => {
    try {
      return await run();
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message?.slice(0, 200) });
      throw err;
    } finally {
      span.end();
    }
  });
}

