// Request bodies: at most 1 MB (413), JSON where JSON is expected (415), and parseable (400) before any route sees them.
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { AppError, invalid } from '../domain/errors';
import type { AppEnv } from './env';

export const MAX_JSON_BYTES = 1024 * 1024;

/** 1 MB for JSON bodies; upload routes (`except`) enforce their own, larger limit while streaming. */
export function jsonBodyLimit(opts: { except?: RegExp } = {}): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: MAX_JSON_BYTES,
    onError: () => {
      throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${MAX_JSON_BYTES / 1024 / 1024} MB.`);
    },
  });
  return (c, next) => (opts.except?.test(new URL(c.req.url).pathname) ? next() : limit(c, next));
}

/** For POST/PUT/PATCH: an empty body passes (the route's schema decides if one is required); anything else must be JSON. */
export function jsonOnly(opts: { multipartPaths?: RegExp } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(c.req.method)) return next();
    const type = c.req.header('content-type') ?? '';
    if (opts.multipartPaths?.test(new URL(c.req.url).pathname) && /^multipart\/form-data/i.test(type)) return next();
    const text = await c.req.text();
    if (text.length === 0) return next();
    if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the body as application/json (got ${type ? type.split(';')[0] : 'no Content-Type'}).`);
    }
    try {
      JSON.parse(text);
    } catch {
      throw invalid([{ path: '(body)', message: 'is not valid JSON' }]);
    }
    await next();
  };
}
