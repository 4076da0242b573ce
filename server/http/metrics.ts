// The HTTP server histogram: one observation per request, labelled by method, the route template hono matched and status.
import type { Context } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Metrics } from '../metrics';
import { IN_PROCESS } from './rate-limit';
import type { AnswerObserver } from './request-context';

/** OpenTelemetry's known methods; anything else is `_OTHER`, so a client cannot mint label values. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The route template of the answer, never the path (ids and tokens stay out of the labels): the pattern of the layer
 * that answered; when a wildcard layer answered early (401, 429, a refused body), the request's own route beyond it if
 * one matched; a 404 from nothing but wildcard layers is `unknown` (the not-found answer).
 */
export function routeLabel(c: Context): string {
  const routes = matchedRoutes(c);
  const i = c.req.routeIndex;
  const at = routes[i];
  if (!at) return 'unknown';
  // A route's handler or its validators: a template of its own. A handler on a wildcard (`/verify/*`) is one too.
  if (!at.path.endsWith('*') || at.handler.length < 2) return at.path;
  for (let j = i + 1; j < routes.length; j++) if (!routes[j]!.path.endsWith('*')) return routes[j]!.path;
  return c.res.status === 404 ? 'unknown' : at.path;
}

/**
 * Observes each answer that `requestContext` finished (status and headers ready; a stream's body may go on) with the time
 * since the request reached it. Requests the BFF sends to /v2 in-process are not server requests and are not counted.
 */
export function httpMetrics(metrics: Pick<Metrics, 'httpDuration'>): AnswerObserver {
  const histogram = metrics.httpDuration;
  return (c, ms) => {
    if ((c.env as Record<symbol, unknown> | undefined)?.[IN_PROCESS]) return;
    const method = c.req.method;
    histogram.observe(METHODS.has(method) ? method : '_OTHER', routeLabel(c), c.res.status, ms / 1000);
  };
}
