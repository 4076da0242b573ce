// Names the request's server span (made by the HTTP instrumentation) by its route template, as OpenTelemetry's HTTP
// conventions ask: `GET /v2/customers/:id`, with `http.route`; only installed when tracing is on.
import { trace } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { routeLabel } from './metrics';
import { IN_PROCESS } from './rate-limit';

export function traceRoute(): MiddlewareHandler {
  return (c, next) => {
    // The BFF's in-process calls to /v2 run inside the outer request's span: that span keeps the outer route.
    if ((c.env as Record<symbol, unknown> | undefined)?.[IN_PROCESS]) return next();
    const span = trace.getActiveSpan();
    if (!span) return next();
    return next().then(() => {
      const route = routeLabel(c);
      span.setAttribute('http.route', route);
      span.updateName(`${c.req.method} ${route}`);
    });
  };
}
