// Shapes every resource shares: problems (RFC 9457), pagination, ids, dates.
import { z } from '@hono/zod-openapi';
import { FIELD_ERROR_MEANING } from './field-code-table';
import { FIELD_ERROR_CODES } from './field-codes';
import { cleanText, hasControlCharacter, METADATA_LIMITS, metadataIssues, MULTILINE_TEXT_PATTERN, TEXT_PATTERN, textErrorMessages } from './text';

export const Uuid = z.uuid().openapi({ example: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d' });

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: 'https://docs.ramp.dev/problems/validation-failed' }),
    title: z.string().openapi({ example: 'Validation failed' }),
    status: z.number().int().openapi({ example: 400 }),
    detail: z.string().openapi({ example: 'taxId: not a valid CPF' }),
    code: z.string().openapi({ example: 'VALIDATION_FAILED' }),
    errors: z
      .array(
        z.object({
          path: z.string().openapi({ example: 'sourceAmount' }),
          message: z.string().openapi({ description: 'English, for people reading logs; may change. Translate `code` instead; never shown to end users as is.', example: 'BRL amounts have at most 2 decimal places' }),
          pointer: z
            .string()
            .openapi({ description: 'RFC 6901 JSON Pointer to the same place as `path` (`/holder/address/country`; `""` is the whole body; `/query/…`, `/header/…` for parameters).', example: '/sourceAmount' }),
          code: z.enum(FIELD_ERROR_CODES).openapi({
            description: `Stable reason, for clients to translate (the table is in docs/api.md): ${FIELD_ERROR_CODES.map((c) => `\`${c}\` ${FIELD_ERROR_MEANING[c]}`).join(' ')}`,
            example: 'TOO_MANY_DECIMALS',
          }),
        }),
      )
      .optional(),
    requestId: z.string().openapi({ example: 'req_01936f2a7c1e7aa89d4b3f1c2e5a6b7d' }),
    // The extension members some codes add, each named and typed: a problem carries no member that is not listed here.
    existingCustomerId: z.uuid().optional().openapi({ description: 'CONFLICT on a taxId: the customer that already has it.' }),
    customerId: z.uuid().optional().openapi({ description: 'CONFLICT (widget session): the customer the session already belongs to.' }),
    verificationStatus: z.string().optional().openapi({ description: 'INVALID_STATE: the customer\'s verification status that refused the request.', example: 'UNDER_VERIFICATION' }),
    holderStatus: z.string().optional().openapi({ description: 'INVALID_STATE: the bank account holder\'s verification status.', example: 'UNDER_VERIFICATION' }),
    missing: z.array(z.string()).optional().openapi({ description: 'INVALID_STATE: the requirements still missing.', example: ['ADDITIONAL_INFORMATION'] }),
    limit: z
      .union([
        z.enum(['single', 'daily', 'monthly']).openapi({ description: 'TRANSACTION_LIMIT_EXCEEDED: the limit the transaction goes over.' }),
        z
          .object({ documents: z.number().int().optional(), bytes: z.number().int() })
          .openapi({ description: 'DOCUMENT_QUOTA_EXCEEDED: what may be kept (documents only for a customer).' }),
      ])
      .optional(),
    used: z
      .object({ documents: z.number().int().optional(), bytes: z.number().int() })
      .optional()
      .openapi({ description: 'DOCUMENT_QUOTA_EXCEEDED: what is kept now (documents only for a customer).' }),
    scope: z
      .enum(['partner', 'session'])
      .optional()
      .openapi({ description: "DOCUMENT_QUOTA_EXCEEDED: whose quota, when not the customer's: all of the partner's documents, or the widget session's upload budget." }),
    max: z.string().optional().openapi({ description: 'TRANSACTION_LIMIT_EXCEEDED: the limit, USD-equivalent.', example: '1000.00' }),
    remaining: z.string().optional().openapi({ description: 'TRANSACTION_LIMIT_EXCEEDED: what remains of it, USD-equivalent.', example: '250.00' }),
    amountUsd: z.string().optional().openapi({ description: 'TRANSACTION_LIMIT_EXCEEDED: the transaction, USD-equivalent.', example: '300.00' }),
    exchangeRateId: z.uuid().optional().openapi({ description: 'RATE_EXPIRED, RATE_ALREADY_USED: the locked exchange rate.' }),
    expiresAt: z.iso.datetime().optional().openapi({ description: 'RATE_EXPIRED: when the locked rate expired.' }),
    asset: z.string().optional().openapi({ description: 'INSUFFICIENT_BALANCE: the stablecoin short.', example: 'USDC' }),
    blockchain: z.string().optional().openapi({ description: 'INSUFFICIENT_BALANCE: the chain it is short on.', example: 'POLYGON' }),
    minimumSourceAmount: z.string().optional().openapi({ description: 'VALIDATION_FAILED (BELOW_MINIMUM): the smallest source amount that delivers anything.', example: '1.05' }),
    guaranteedTargetAmount: z.string().optional().openapi({ description: 'TARGET_AMOUNT_NOT_GUARANTEED: the target amount that can be guaranteed.', example: '99.50' }),
    retryAfter: z.number().int().optional().openapi({ description: 'RATE_LIMITED: seconds to wait, as in `Retry-After`.', example: 5 }),
  })
  .strict()
  .openapi('Problem', { description: 'RFC 9457 problem details, with a stable `code` and one `errors[]` entry per bad field; the extension members a code adds are listed, each optional.' });

export type Problem = z.infer<typeof ProblemSchema>;

export const PageQuery = z.object({
  size: z.coerce.number().int().min(1).max(100).default(25).openapi({ description: 'Items per page, 1 to 100.', example: 25 }),
  cursor: z
    .uuid('is not a cursor this API returned (a uuid)')
    .optional()
    .openapi({
      description:
        'A uuid: the `nextCursor` or `previousCursor` of an earlier page. The page answered is the items after this id in list order (newest first); `previousCursor` points just above the previous page (`ffffffff-ffff-ffff-ffff-ffffffffffff` = from the top), so one parameter serves both directions.',
    }),
});

export const PaginationSchema = z
  .object({
    size: z.number().int(),
    hasNextPage: z.boolean(),
    hasPreviousPage: z.boolean(),
    nextCursor: z.uuid().nullable().openapi({ description: 'Pass as `cursor` for the next (older) page; null on the last page.' }),
    previousCursor: z.uuid().nullable().openapi({ description: 'Pass as `cursor` for the previous (newer) page; null on the first page.' }),
  })
  .openapi('Pagination', { description: 'Newest first. Pass `nextCursor` for older items, `previousCursor` for newer ones.' });

export type Pagination = z.infer<typeof PaginationSchema>;

export const page = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), pagination: PaginationSchema });

/** A calendar date, YYYY-MM-DD, that exists. */
export const PlainDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, { message: 'is not a calendar date', params: { code: 'INVALID_DATE' } })
  .openapi({ format: 'date', example: '1990-05-17' });

export interface TextOptions {
  min?: number;
  max: number;
  /** Strip leading and trailing white space first (default true). */
  trim?: boolean;
  /** Keep `\n` and `\t` inside (default false: one line). */
  multiline?: boolean;
}

/**
 * Every string the API accepts: NFC-normalised, trimmed unless `trim: false`, then refused (400 naming the field) when it
 * holds a control character such as NUL or malformed Unicode, or is outside `min`..`max`. The rule lives in `./text`.
 */
export const Text = (o: TextOptions) => {
  const multiline = o.multiline ?? false;
  let s = z
    .string()
    .overwrite((v) => cleanText(v, { trim: o.trim ?? true, multiline }))
    .refine((v) => !hasControlCharacter(v, multiline), { message: textErrorMessages.controlCharacter, params: { code: 'INVALID_CHARACTERS' } });
  if (o.min) s = s.min(o.min);
  return s.max(o.max).openapi({ pattern: multiline ? MULTILINE_TEXT_PATTERN : TEXT_PATTERN });
};

/** For zod string formats (URLs) that take no `Text`: the same refusal of control characters, as a `refine`. */
export const NoControlCharacters = { test: (v: string) => !hasControlCharacter(v), message: textErrorMessages.controlCharacter };

/** A value that is matched as a whole (amounts, codes, rates): no trimming, no control characters. */
export const Token = (max: number) => Text({ max, trim: false });

/** The decimal-string form the pricing rules read (no sign, exponent or spaces); the decimals allowed depend on the currency. */
export const DECIMAL_PATTERN = '^(0|[1-9][0-9]*)(\\.[0-9]+)?$';
/** An amount or rate as a decimal string, documented with its pattern (the pricing rules check it and its decimals, naming the field). */
export const DecimalString = (max = 40) => Token(max).openapi({ pattern: DECIMAL_PATTERN });

/** Partner metadata: free-form JSON under limits that keep a customer row small and its keys printable. */
export const MetadataSchema = z
  .record(z.string(), z.unknown())
  .superRefine((m, ctx) => {
    for (const issue of metadataIssues(m)) ctx.addIssue({ code: 'custom', path: issue.segments, message: issue.message, params: { code: issue.code } });
  })
  .openapi('Metadata', {
    description: `Free-form JSON object: at most ${METADATA_LIMITS.keys} keys of 1 to ${METADATA_LIMITS.keyLength} characters, strings up to ${METADATA_LIMITS.stringLength} characters, nesting up to ${METADATA_LIMITS.depth} levels, ${METADATA_LIMITS.bytes / 1024} KB as JSON; no control characters.`,
    example: { partnerUserId: 'u_123' },
    maxProperties: METADATA_LIMITS.keys,
  });
