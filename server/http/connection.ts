// What an answer does with its connection:
// - an answer made before the request body was read (a 401/404/409/413 before an upload is read) first reads and drops
//   the rest of the body, within a bound: a client still sending would otherwise meet a reset (EPIPE) instead of the
//   answer. The connection then stays usable;
// - `Connection: close`, so that the client's next request goes on a new connection instead of failing on one the server
//   is about to close, when the body could not be read to its end (over the bound, or a parser gave up on it mid-way:
//   a 415 on a file's first bytes), and on every answer once the process drains (SIGTERM).
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { MAX_DOCUMENT_BYTES } from '../../src/contract/documents';
import { setAnswerHeader } from './answer-headers';
import { MULTIPART_OVERHEAD } from './multipart';

/** How long keep-alive connections stay open once draining starts, so a request already on its way is answered. */
export const LINGER_MS = 1000;

/** Set when the process starts to drain: from then on every answer closes its connection. */
export const draining = { started: false };

/** The most of an unread body read and dropped before an early answer (the largest upload), and for how long. Tests lower them. */
export const dropLimits = { bytes: MAX_DOCUMENT_BYTES + MULTIPART_OVERHEAD, ms: 60_000 };

const bodyOf = (c: Context) => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
const hasBody = (incoming: IncomingMessage) => Number(incoming.headers['content-length'] ?? 0) > 0 || incoming.headers['transfer-encoding'] !== undefined;

/**
 * Once the answer is made and before it is sent: the unread rest of the body, read and dropped within `dropLimits`, or
 * undefined when there is none to read (read already, none sent, declared over the bound, or held by a parser).
 */
export function dropUnreadBody(c: Context): Promise<void> | undefined {
  if (draining.started) return undefined;
  const incoming = bodyOf(c);
  if (!incoming?.headers || incoming.complete || !hasBody(incoming)) return undefined;
  if (Number(incoming.headers['content-length'] ?? 0) > dropLimits.bytes) return undefined;
  const body = c.req.raw.body;
  if (!body || body.locked) return undefined;
  return drop(body.getReader());
}

async function drop(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  const stop = () => reader.cancel().catch(() => undefined);
  const timer = setTimeout(stop, dropLimits.ms);
  timer.unref();
  let read = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.byteLength;
      if (read > dropLimits.bytes) return void (await stop());
    }
  } catch {
    // The client went away or the body broke: the answer goes out with Connection: close.
  } finally {
    clearTimeout(timer);
  }
}

/** Once the answer is made (`requestContext` calls it last): `Connection: close` when draining or the body was not read to its end. */
export function closeConnectionIfDone(c: Context): void {
  if (draining.started) return setAnswerHeader(c, 'connection', 'close');
  const incoming = bodyOf(c);
  if (!incoming?.headers || incoming.complete) return;
  if (hasBody(incoming)) setAnswerHeader(c, 'connection', 'close');
}
