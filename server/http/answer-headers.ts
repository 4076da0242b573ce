// Headers that every answer carries (request id, nosniff, API version, Connection: close after an unread body), set
// where they cost least.
import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * Sets a header on the answer. Served by @hono/node-server, it goes straight onto Node's ServerResponse, which writes
 * it with the head whatever `c.res` becomes: the answer keeps the plain header record `c.json` gives it, and no fetch
 * `Headers` object is built for it (undici's runs WebIDL checks on every call). A header the
 * answer sets itself wins. In process (`app.request`, the BFF's own calls), on `c.res`, or before there is one, on the
 * context (`c.header`), so that the answer made from it carries the header too.
 */
export function setAnswerHeader(c: Context, name: string, value: string): void {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && !outgoing.headersSent) outgoing.setHeader(name, value);
  else if (c.finalized) c.res.headers.set(name, value);
  else c.header(name, value);
}
