// Shapes every resource shares: problems (RFC 9457), pagination, ids, dates.
import { z } from '@hono/zod-openapi';

export const Uuid = z.uuid().openapi({ example: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d' });

export const ProblemSchema = z
  .object({
    type: z.string().openapi({ example: 'https://docs.ramp.dev/problems/validation-failed' }),
    title: z.string().openapi({ example: 'Validation failed' }),
    status: z.number().int().openapi({ example: 400 }),
    detail: z.string().openapi({ example: 'taxId: not a valid CPF' }),
    code: z.string().openapi({ example: 'VALIDATION_FAILED' }),
    errors: z
      .array(z.object({ path: z.string().openapi({ example: 'taxId' }), message: z.string() }))
      .optional(),
    requestId: z.string().openapi({ example: 'req_01936f2a7c1e7aa89d4b3f1c2e5a6b7d' }),
  })
  .catchall(z.unknown())
  .openapi('Problem', { description: 'RFC 9457 problem details, with a stable `code` and one `errors[]` entry per bad field.' });

export type Problem = z.infer<typeof ProblemSchema>;

export const PageQuery = z.object({
  size: z.coerce.number().int().min(1).max(100).default(25).openapi({ description: 'Items per page, 1 to 100.', example: 25 }),
  cursor: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .openapi({ description: 'Opaque: the `nextCursor` or `previousCursor` of an earlier page.' }),
});

export const PaginationSchema = z
  .object({
    size: z.number().int(),
    hasNextPage: z.boolean(),
    hasPreviousPage: z.boolean(),
    nextCursor: z.string().nullable(),
    previousCursor: z.string().nullable(),
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
  }, 'is not a calendar date')
  .openapi({ format: 'date', example: '1990-05-17' });
