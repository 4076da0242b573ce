// Tracing as the server sees it: whether the preload (server/tracing-preload.ts) started the OpenTelemetry SDK, and the
// active span's ids for log lines. Without the preload the API answers no span and nothing here costs anything.
import { trace } from '@opentelemetry/api';

/** True when this process runs with the tracing preload (OTEL_TRACES_EXPORTER set). */
export const tracingOn = (): boolean => (globalThis as Record<symbol, unknown>)[Symbol.for('ramp.tracing')] === true;

/** `trace_id` and `span_id` of the span active where a log line is written (a request, a job), as OpenTelemetry's log data model names them. */
export function traceFields(): { trace_id: string; span_id: string; trace_flags: string } | Record<string, never> {
  const ctx = trace.getActiveSpan()?.spanContext();
  if (!ctx) return {};
  return { trace_id: ctx.traceId, span_id: ctx.spanId, trace_flags: `0${ctx.traceFlags.toString(16)}`.slice(-2) };
}
