// The one rule for text the API accepts, with no zod so the components can share it: no control characters, well-formed Unicode, NFC.
// It exists because a NUL or a lone surrogate reaches PostgreSQL (which refuses NUL in text and jsonb) and breaks logs and
// exports; C0/C1 controls have no place in a name, an address or a filter. Multi-line fields may keep `\n` and `\t`.
import type { FieldErrorCode } from './field-codes';

/** Any C0/C1 control character (`\p{Cc}`: U+0000–U+001F, U+007F–U+009F) or an unpaired UTF-16 surrogate. */
const FORBIDDEN = /[\p{Cc}\p{Cs}]/u;
/** The same, except line feed and tab. */
const FORBIDDEN_MULTILINE = /[\0-\x08\x0B-\x1F\x7F-\x9F\p{Cs}]/u;

/**
 * The same rule as a JSON Schema `pattern` for the OpenAPI document: no control character, surrogates only in pairs.
 * Written without `\p{…}` so it means the same with and without the `u` flag. The server itself tests with FORBIDDEN.
 */
export const TEXT_PATTERN = '^(?:[^\\x00-\\x1F\\x7F-\\x9F\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$';
export const MULTILINE_TEXT_PATTERN = '^(?:[^\\x00-\\x08\\x0B-\\x1F\\x7F-\\x9F\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$';

export type TextError = 'controlCharacter' | 'tooShort' | 'tooLong';

export const textErrorMessages: Record<TextError, string> = {
  controlCharacter: 'must not contain control characters (such as NUL) or malformed Unicode',
  tooShort: 'is too short',
  tooLong: 'is too long',
};

export interface TextRule {
  /** Keep `\n` and `\t` (a `\r\n` becomes `\n`). Default false. */
  multiline?: boolean;
  /** Strip leading and trailing white space. Default true. */
  trim?: boolean;
}

export function hasControlCharacter(value: string, multiline = false): boolean {
  return (multiline ? FORBIDDEN_MULTILINE : FORBIDDEN).test(value);
}

/** The stored form of a text: NFC, `\r\n` → `\n` for multi-line text, trimmed unless `trim: false`. Lone surrogates are left for the check to refuse. */
export function cleanText(value: string, rule: TextRule = {}): string {
  let v = value.normalize('NFC');
  if (rule.multiline) v = v.replace(/\r\n?/g, '\n');
  return rule.trim === false ? v : v.trim();
}

/** Checks an already cleaned text; length counts UTF-16 units, like zod's `max`. */
export function checkText(value: string, rule: TextRule & { min?: number; max?: number } = {}): TextError | undefined {
  if (hasControlCharacter(value, rule.multiline)) return 'controlCharacter';
  if (rule.min !== undefined && value.length < rule.min) return 'tooShort';
  if (rule.max !== undefined && value.length > rule.max) return 'tooLong';
  return undefined;
}

/** A file name as the uploader sent it, made safe to store and show: controls dropped, NFC, at most 255 characters. */
export function cleanFileName(value: string | undefined): string {
  const v = (value ?? '').replace(/[\p{Cc}\p{Cs}]/gu, '').normalize('NFC').trim().slice(0, 255);
  return v || 'document';
}

// Partner metadata: free-form JSON, but bounded so one customer row cannot carry a document or a 10,000-deep tree.
export const METADATA_LIMITS = { keys: 50, keyLength: 40, stringLength: 500, depth: 5, bytes: 8192 } as const;

export interface MetadataIssue {
  /** Dotted path below `metadata`, empty for the object itself. */
  path: string;
  /** The same place key by key (a key may hold a dot), for a JSON Pointer. */
  segments: (string | number)[];
  message: string;
  /** Its `errors[].code` (src/contract/field-codes.ts). */
  code: FieldErrorCode;
}

/**
 * Every problem of a metadata value, first ones first (at most 10). Iterative and bounded by the depth limit, so a
 * hostile tree cannot exhaust the stack; the size is measured only once the shape is known to be small.
 */
export function metadataIssues(value: unknown): MetadataIssue[] {
  const L = METADATA_LIMITS;
  const issues: MetadataIssue[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [{ path: '', segments: [], message: 'must be an object', code: 'INVALID_TYPE' }];
  if (Object.keys(value).length > L.keys) issues.push({ path: '', segments: [], message: `has more than ${L.keys} keys`, code: 'TOO_MANY' });
  const stack: { v: unknown; segments: (string | number)[]; depth: number }[] = [{ v: value, segments: [], depth: 1 }];
  let visited = 0;
  while (stack.length && issues.length < 10) {
    if (++visited > L.bytes) return [{ path: '', segments: [], message: `is larger than ${L.bytes / 1024} KB as JSON`, code: 'TOO_LARGE' }];
    const { v, segments, depth } = stack.pop()!;
    const path = segments.join('.');
    const at = (k: string | number) => ({ path: [...segments, k].join('.'), segments: [...segments, k] });
    if (typeof v === 'string') {
      if (hasControlCharacter(v)) issues.push({ path, segments, message: textErrorMessages.controlCharacter, code: 'INVALID_CHARACTERS' });
      else if (v.length > L.stringLength) issues.push({ path, segments, message: `is longer than ${L.stringLength} characters`, code: 'TOO_LONG' });
      continue;
    }
    if (typeof v === 'number' || typeof v === 'boolean' || v === null) continue;
    if (typeof v !== 'object') {
      issues.push({ path, segments, message: 'must be JSON', code: 'INVALID_TYPE' });
      continue;
    }
    if (depth > L.depth) {
      issues.push({ path, segments, message: `nests deeper than ${L.depth} levels`, code: 'TOO_LARGE' });
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (const [k, child] of entries) {
      if (typeof k === 'string') {
        if (hasControlCharacter(k)) {
          issues.push({ ...at(k.replace(/[\p{Cc}\p{Cs}]/gu, '?')), message: 'has a key with control characters', code: 'INVALID_CHARACTERS' });
          continue;
        }
        if (k.length < 1 || k.length > L.keyLength) {
          issues.push({ ...at(k.slice(0, L.keyLength)), message: `keys must be 1 to ${L.keyLength} characters`, code: 'INVALID_FORMAT' });
          continue;
        }
      }
      stack.push({ v: child, segments: [...segments, k], depth: depth + 1 });
    }
  }
  if (issues.length === 0 && new TextEncoder().encode(JSON.stringify(value)).length > L.bytes) {
    issues.push({ path: '', segments: [], message: `is larger than ${L.bytes / 1024} KB as JSON`, code: 'TOO_LARGE' });
  }
  return issues;
}
