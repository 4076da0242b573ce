// Request bodies: at most 1 MB (413), UTF-8 JSON where JSON is expected (415), valid UTF-8, parseable, at most 32 levels
// deep and free of control characters (400) before any route sees them.
import { isUtf8 } from 'node:buffer';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { toPointer } from '../../src/contract/field-codes';
import { hasControlCharacter, textErrorMessages } from '../../src/contract/text';
import { AppError, type FieldIssue, invalid } from '../domain/errors';
import type { AppEnv } from './env';

export const MAX_JSON_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 32;

const utf8 = new TextDecoder('utf-8');

const tooLarge = () => {
  throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${MAX_JSON_BYTES / 1024 / 1024} MB.`);
};

/**
 * 1 MB for JSON bodies; upload routes (`except`) enforce their own, larger limit while streaming. A request without a body
 * (GET, HEAD) or with a Content-Length is decided from its headers, as hono's bodyLimit decides it, without touching
 * `c.req.raw.body`: on @hono/node-server that builds a whole fetch Request (stream, abort signal) per request, where
 * `c.req.text()` later reads the body straight from Node. Only a chunked body goes through bodyLimit's counting reader.
 */
export function jsonBodyLimit(opts: { except?: RegExp } = {}): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({ maxSize: MAX_JSON_BYTES, onError: tooLarge });
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    if (opts.except?.test(c.req.path)) return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) return Number.parseInt(length, 10) > MAX_JSON_BYTES ? tooLarge() : next();
    return limit(c, next);
  };
}

/** For POST/PUT/PATCH: an empty body passes (the route's schema decides if one is required); anything else must be JSON. */
export function jsonOnly(opts: { multipartPaths?: RegExp } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(c.req.method)) return next();
    const type = c.req.header('content-type') ?? '';
    if (opts.multipartPaths?.test(c.req.path) && /^multipart\/form-data/i.test(type)) return next();
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.length === 0) return next();
    if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type)) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the body as application/json (got ${type ? type.split(';')[0] : 'no Content-Type'}).`);
    }
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1];
    if (charset && !/^utf-?8$/i.test(charset)) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the body as UTF-8 JSON (got charset ${charset.slice(0, 40)}).`);
    // Bytes that are not UTF-8 would be decoded with replacement characters and stored so: refused, nothing stored.
    if (!isUtf8(bytes)) throw invalid([{ path: '(body)', message: 'is not valid UTF-8', code: 'INVALID_BODY' }]);
    const text = utf8.decode(bytes);
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw invalid([{ path: '(body)', message: `nests deeper than ${MAX_JSON_DEPTH} levels`, code: 'INVALID_BODY' }]);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalid([{ path: '(body)', message: 'is not valid JSON', code: 'INVALID_BODY' }]);
    }
    const bad = controlCharacterIssue(parsed);
    if (bad) throw invalid([bad]);
    // The route's validator decodes and parses the body again through `c.req.json()` (hono keeps the bytes read above,
    // not this value): a few µs of a ~150-byte body, against replacing hono's method.
    await next();
  };
}

/** `jsonBodyLimit` and `jsonOnly` as one middleware (`uploads`: the paths that take multipart), a hop fewer per request. */
export function jsonBody(opts: { uploads?: RegExp } = {}): MiddlewareHandler<AppEnv> {
  const limit = jsonBodyLimit({ except: opts.uploads });
  const only = jsonOnly({ multipartPaths: opts.uploads });
  // Neither looks at a request without a body: it goes straight on (no async frames on the read paths).
  return (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limit(c, async () => {
    await only(c, next);
  }));
}

/** Scans JSON text for `{`/`[` nesting past `limit`, without parsing or recursing (so 10,000 levels cost nothing). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > limit) return true;
    } else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return false;
}

/**
 * The first key or string value with a control character (keys: any; values: any but tab, line feed and carriage
 * return, which multi-line fields may hold and their schema decides) or malformed Unicode. Iterative: a parsed body is
 * at most MAX_JSON_DEPTH deep, but nothing here relies on it.
 */
export function controlCharacterIssue(value: unknown): FieldIssue | undefined {
  const stack: [unknown, string[]][] = [[value, []]];
  const issue = (at: string[], message: string): FieldIssue => ({ path: at.join('.') || '(body)', pointer: toPointer(at), message, code: 'INVALID_CHARACTERS' });
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (hasControlCharacter(v.replace(/[\t\n\r]/g, ' '))) return issue(at, textErrorMessages.controlCharacter);
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => stack.push([x, [...at, String(i)]]));
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (hasControlCharacter(k)) return issue([...at, k.replace(/[\p{Cc}\p{Cs}]/gu, '?')], 'is a key with control characters or malformed Unicode');
        stack.push([x, [...at, k]]);
      }
    }
  }
  return undefined;
}
