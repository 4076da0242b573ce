// Per-request context: a request id (echoed as X-Request-Id), `nosniff` on every answer, and one structured log line per request, with no bodies, keys or tokens.
import type { Context, MiddlewareHandler } from 'hono';
import { newRequestId } from '../ids';
import type { Logger } from '../logger';
import { setAnswerHeader } from './answer-headers';
import { closeConnectionIfDone, dropUnreadBody } from './connection';
import type { AppEnv } from './env';

/** One year, subdomains included: production is served over https only (RAMP_PUBLIC_URL), so browsers should never try http. */
const HSTS = 'max-age=31536000; includeSubDomains';

/** Told of each answer once it is finished, with the milliseconds since the request reached this middleware. */
export type AnswerObserver = (c: Context<AppEnv>, ms: number) => void;

/**
 * `onAnswer` (the metrics) rides on this middleware's continuation rather than being a layer of its own: a layer would
 * cost each request a promise and turns of the microtask queue of its own.
 */
export function requestContext(logger: Logger, opts: { hsts?: boolean; onAnswer?: AnswerObserver } = {}): MiddlewareHandler<AppEnv> {
  // Without a line to write (RAMP_LOG_LEVEL above info) and nothing to observe, nothing is timed or gathered for one.
  const logs = logger.isLevelEnabled('info');
  const { onAnswer } = opts;
  const timed = logs || onAnswer !== undefined;
  // Not async: the answer is finished in `next`'s continuation, without a promise of this middleware's own.
  return (c, next) => {
    const started = timed ? performance.now() : 0;
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && /^[A-Za-z0-9_.-]{8,64}$/.test(incoming) ? incoming : newRequestId();
    c.set('requestId', requestId);
    c.set('logger', logger);
    return next().then(() => {
      setAnswerHeader(c, 'x-request-id', requestId);
      // No response may be sniffed into another type (an uploaded "PDF" rendered as HTML, a JSON problem as script).
      setAnswerHeader(c, 'x-content-type-options', 'nosniff');
      if (opts.hsts) setAnswerHeader(c, 'strict-transport-security', HSTS);
      const unread = dropUnreadBody(c);
      if (unread) return unread.then(() => finish());
      finish();
    });
    function finish(): void {
      closeConnectionIfDone(c);
      if (logs) {
        // The route pattern, not the URL: paths such as /verify/{token} carry secrets.
        const route = c.req.routePath && c.req.routePath !== '/*' ? c.req.routePath : new URL(c.req.url).pathname.replace(/^\/(verify)\/.+$/, '/$1/:token');
        logger.info(
          { requestId, method: c.req.method, route, status: c.res.status, ms: Math.round(performance.now() - started), partnerId: c.get('partnerId') },
          'request',
        );
      }
      if (onAnswer) onAnswer(c, performance.now() - started);
    }
  };
}
