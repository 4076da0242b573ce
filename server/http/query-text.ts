// Query strings: a control character (such as NUL) or malformed Unicode in any parameter's name or value is a 400 naming
// it, on every route, before a route's own schema (or a route with none) passes it on to the database.
import type { MiddlewareHandler } from 'hono';
import { hasControlCharacter, textErrorMessages } from '../../src/contract/text';
import { invalid } from '../domain/errors';
import { setAnswerHeader } from './answer-headers';
import { answeredVersion } from './versions';

/** A query of printable ASCII characters other than `%`. */
const PLAIN = /^[\x20-\x24\x26-\x7e]*$/;

export function queryText(): MiddlewareHandler {
  return (c, next) => {
    const url = c.req.url;
    const q = url.indexOf('?');
    const query = q >= 0 ? url.slice(q + 1) : '';
    // Printable ASCII without `%` decodes to printable ASCII (a `+` to a space): nothing to find, nothing to parse.
    if (!PLAIN.test(query)) {
      for (const [name, value] of new URLSearchParams(query)) {
        const shown = () => name.replace(/[\p{Cc}\p{Cs}]/gu, '?');
        const refuse = (message: string) => {
          // Checked before /v2's own stack runs, so the refusal names its version here, as every other /v2 answer does.
          if (c.req.path.startsWith('/v2/')) setAnswerHeader(c, 'ramp-version', answeredVersion(c.req.header('ramp-version')));
          return invalid([{ path: `query.${shown()}`, message, code: 'INVALID_CHARACTERS' }]);
        };
        if (hasControlCharacter(name)) throw refuse('is a parameter name with control characters or malformed Unicode');
        if (hasControlCharacter(value)) throw refuse(textErrorMessages.controlCharacter);
      }
    }
    return next();
  };
}
