// Keep-alive after a refused body: a response sent before the request body was read to its end says `Connection: close`.
// Otherwise the client keeps the connection for its next request while the server closes it once it gives up draining the
// unread bytes (a 413, a 415 on the first bytes of a file, a 401/404/409 before an upload is read), and that request fails.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { setAnswerHeader } from './answer-headers';

/** Once the answer is made (`requestContext` calls it last): `Connection: close` if the request's body was not read to its end. */
export function closeIfBodyUnread(c: Context): void {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming?.headers || incoming.complete) return;
  const hasBody = Number(incoming.headers['content-length'] ?? 0) > 0 || incoming.headers['transfer-encoding'] !== undefined;
  if (hasBody) setAnswerHeader(c, 'connection', 'close');
}
