// Structured logs (pino), each line with the pid that wrote it (RAMP_WORKERS runs several) and, inside a traced request
// or job, its trace_id and span_id. Keys, tokens and personal data never reach them: we log no bodies, redact the fields
// that could carry secrets, and log a database error by its code and statement only (its message and drizzle's carry the
// values).
import { type DestinationStream, pino, type Logger } from 'pino';
import { traceFields, tracingOn } from './tracing';

export type { Logger };

const redact = ['authorization', '*.authorization', 'apiKey', '*.apiKey', 'token', '*.token', 'taxId', '*.taxId', 'secret', '*.secret'];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'ramp', pid: process.pid },
      redact: { paths: redact, censor: '[redacted]' },
      serializers: { err: safeError, error: safeError },
      // With tracing on (OTEL_TRACES_EXPORTER), every line written inside a traced request or job names its trace and span.
      ...(tracingOn() ? { mixin: traceFields } : {}),
    },
    destination,
  );
}

type ErrorLike = Error & Record<string, unknown>;

/** A database error: drizzle's wrapper (message = SQL + parameters) or the driver's (message may quote a value). */
const isDatabaseError = (e: ErrorLike): boolean =>
  e.name === 'DrizzleQueryError' || e.constructor?.name === 'DrizzleQueryError' || (typeof e.severity === 'string' && typeof e.code === 'string');

/** `insert into "customers"`, `select … from "wallets"`: which statement failed, never its values. */
export function statementName(query: string): string {
  const verb = /^\s*(\w+)/.exec(query)?.[1]?.toLowerCase() ?? 'statement';
  const table = /\b(?:into|from|update)\s+("?[\w.]+"?)/i.exec(query)?.[1];
  return table ? `${verb} ${table}` : verb;
}

const DB_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'schema', 'routine'] as const;

/**
 * pino's `err` serializer. A database error keeps its type, SQLSTATE code, constraint, table, column, the statement's
 * name and the stack frames; its message, `detail`, `where` and drizzle's `params` are dropped, because they quote the
 * row (a name, a tax id, a birth date). Other errors keep their message. Causes are followed a few levels.
 */
export function safeError(err: unknown, depth = 0): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: err === null ? 'null' : typeof err };
  const e = err as ErrorLike;
  const out: Record<string, unknown> = { type: e.constructor?.name || e.name };
  const frames = (e.stack ?? '')
    .split('\n')
    .filter((l) => /^\s+at /.test(l))
    .slice(0, 12)
    .join('\n');
  if (isDatabaseError(e)) {
    if (typeof e.query === 'string') out.statement = statementName(e.query);
    for (const f of DB_FIELDS) if (typeof e[f] === 'string' && e[f]) out[f] = e[f];
    out.message = 'database error (message withheld: it may quote personal data)';
  } else {
    out.message = e.message.length > 500 ? `${e.message.slice(0, 500)}…` : e.message;
    if (typeof e.code === 'string') out.code = e.code;
  }
  if (frames) out.stack = frames;
  if (e.cause !== undefined && depth < 3) out.cause = safeError(e.cause, depth + 1);
  return out;
}
