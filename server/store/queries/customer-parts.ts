// Everything a customer read shows besides the customer row (documents and parties for the requirements, wallets, and
// optionally balances and limit usage) in ONE statement of json_agg subqueries: one round trip instead of six, and for a
// single customer's read the same statement brings the row too.
import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { isUuid } from '../../ids';
import { Coalescer } from '../coalesce';
import { baseOutsideTransaction, type Db } from '../db';
import { type associatedParties, customers, type documents } from '../schema/index';
import type { CustomerRow } from './customers';
import type { WalletRow } from './wallets';

export type KycDocRow = { customerId: string; partyId: string | null; type: string; side: string | null; status: (typeof documents.$inferSelect)['status']; id: string };
export type KycPartyRow = { customerId: string; id: string; type: (typeof associatedParties.$inferSelect)['type'] };

export interface CustomerParts {
  docs: KycDocRow[];
  parties: KycPartyRow[];
  wallets: Pick<WalletRow, 'customerId' | 'blockchain' | 'address' | 'isDefault'>[];
  balances: { customerId: string; blockchain: string; asset: string; balance: string }[];
  overrides: { customerId: string; single: string | null; daily: string | null; monthly: string | null }[];
  used: { customerId: string; daily: string; monthly: string }[];
}

export interface PartsOptions {
  balances?: boolean;
  limits?: { dayStart: Date | SQL; monthStart: Date | SQL };
}

const at = (d: Date | SQL) => (d instanceof Date ? d.toISOString() : d);

/**
 * The parts of the customers whose ids `ids` (a uuid[] expression) gives, as one json object expression: usable alone
 * or as a column beside the customer row itself (`ids` may then refer to the outer row).
 */
function partsJson(partnerId: string | SQL, ids: SQL, accounts: SQL, opts: PartsOptions): SQL {
  const none = sql`'[]'::json`;
  const balances = opts.balances
    ? sql`(SELECT coalesce(json_agg(json_build_object('customerId', substr(account, 10), 'blockchain', blockchain, 'asset', asset, 'balance', balance::text) ORDER BY blockchain, asset), '[]')
           FROM ledger_balances WHERE partner_id = ${partnerId} AND account = ANY(${accounts}))`
    : none;
  const overrides = opts.limits
    ? sql`(SELECT coalesce(json_agg(json_build_object('customerId', customer_id, 'single', single::text, 'daily', daily::text, 'monthly', monthly::text)), '[]')
           FROM limit_overrides WHERE partner_id = ${partnerId} AND customer_id = ANY(${ids}))`
    : none;
  const used = opts.limits
    ? sql`(SELECT coalesce(json_agg(u), '[]') FROM (
             SELECT customer_id AS "customerId",
                    COALESCE(SUM(amount_usd) FILTER (WHERE created_at >= ${at(opts.limits.dayStart)}::timestamptz), 0)::text AS daily,
                    COALESCE(SUM(amount_usd), 0)::text AS monthly
             FROM limit_reservations
             WHERE partner_id = ${partnerId} AND customer_id = ANY(${ids}) AND released_at IS NULL AND created_at >= ${at(opts.limits.monthStart)}::timestamptz
             GROUP BY customer_id) u)`
    : none;
  return sql`json_build_object(
    'docs', (SELECT coalesce(json_agg(json_build_object('customerId', customer_id, 'partyId', associated_party_id, 'type', type, 'side', side, 'status', status, 'id', id)), '[]')
       FROM documents WHERE partner_id = ${partnerId} AND customer_id = ANY(${ids})),
    'parties', (SELECT coalesce(json_agg(json_build_object('customerId', customer_id, 'id', id, 'type', type)), '[]')
       FROM associated_parties WHERE partner_id = ${partnerId} AND customer_id = ANY(${ids})),
    'wallets', (SELECT coalesce(json_agg(json_build_object('customerId', customer_id, 'blockchain', blockchain, 'address', address, 'isDefault', is_default) ORDER BY blockchain), '[]')
       FROM wallets WHERE partner_id = ${partnerId} AND customer_id = ANY(${ids})),
    'balances', ${balances}, 'overrides', ${overrides}, 'used', ${used})`;
}

// node-postgres parses json columns; PGlite too. A string (some drivers) is parsed here.
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

/**
 * The parts of a page of customers (a list) in one statement; numbers travel as text (never JSON numbers), so no amount
 * loses a digit. Outside a transaction it is a named statement per shape, as the single read is (planned once).
 */
export async function loadCustomerParts(db: Db, partnerId: string, customerIds: string[], opts: PartsOptions): Promise<CustomerParts> {
  const ids = `{${customerIds.join(',')}}`;
  const accounts = `{${customerIds.map((id) => `"customer:${id}"`).join(',')}}`;
  const base = baseOutsideTransaction(db);
  if (base) {
    const limits = opts.limits as { dayStart: Date; monthStart: Date } | undefined;
    const [row] = await preparedParts(base, opts).execute({ partnerId, ids, accounts, dayStart: limits?.dayStart.toISOString(), monthStart: limits?.monthStart.toISOString() });
    return json(row!.parts);
  }
  const result = await db.execute(sql`SELECT ${partsJson(partnerId, sql`${ids}::uuid[]`, sql`${accounts}::text[]`, opts)} AS parts`);
  const rows = (result as unknown as { rows?: Record<string, unknown>[] }).rows ?? (result as unknown as Record<string, unknown>[]);
  return json(rows[0]!.parts);
}

function partsQuery(db: Db, opts: PartsOptions) {
  const parts = partsJson(sql`${sql.placeholder('partnerId')}`, sql`${sql.placeholder('ids')}::uuid[]`, sql`${sql.placeholder('accounts')}::text[]`, withPlaceholders(opts));
  return db.select({ parts: sql<unknown>`${parts}`.as('parts') }).from(sql`(SELECT 1) AS one`);
}

/** The options with the limit windows as placeholders (`dayStart`, `monthStart`), for a named statement. */
const withPlaceholders = (opts: PartsOptions): PartsOptions => ({
  balances: opts.balances,
  limits: opts.limits ? { dayStart: sql`${sql.placeholder('dayStart')}`, monthStart: sql`${sql.placeholder('monthStart')}` } : undefined,
});

const shapeOf = (opts: PartsOptions) => `${opts.balances ? 'b' : ''}${opts.limits ? 'l' : ''}`;

/** Named statements per database, made once: a prepared statement is bound to the database it was made on. */
const preparedOn = new WeakMap<Db, Map<string, unknown>>();
function preparedOnce<T>(base: Db, name: string, make: () => T): T {
  let byName = preparedOn.get(base);
  if (!byName) preparedOn.set(base, (byName = new Map()));
  let q = byName.get(name) as T | undefined;
  if (!q) byName.set(name, (q = make()));
  return q;
}

function preparedParts(base: Db, opts: PartsOptions) {
  const name = `customer_parts_${shapeOf(opts)}`;
  return preparedOnce(base, name, () => partsQuery(base, opts).prepare(name));
}

function customerWithPartsQuery(db: Db, partnerId: string | SQL, ids: SQL, opts: PartsOptions) {
  const parts = partsJson(partnerId, sql`ARRAY[${customers.id}]`, sql`ARRAY['customer:' || ${customers.id}::text]`, opts);
  return db
    .select({ ...getTableColumns(customers), parts: sql<unknown>`${parts}`.as('parts') })
    .from(customers)
    .where(and(eq(customers.partnerId, partnerId), sql`${customers.id} = ANY(${ids})`));
}

/**
 * The customer read as named prepared statements, one per shape (with or without balances and limits), per database:
 * PostgreSQL parses and plans its six subqueries once per connection instead of on every read. The ids are a uuid[]
 * (`{…}` text), so one statement answers a batch of reads.
 */
function preparedRead(base: Db, opts: PartsOptions) {
  const name = `customer_read_${shapeOf(opts)}`;
  return preparedOnce(base, name, () => customerWithPartsQuery(base, sql`${sql.placeholder('partnerId')}`, sql`${sql.placeholder('ids')}::uuid[]`, withPlaceholders(opts)).prepare(name));
}

type Found = { row: CustomerRow; parts: CustomerParts };
const reads = new WeakMap<Db, Coalescer<Found>>();

/**
 * One customer of the partner and all its parts in one statement (a customer read); undefined when there is none.
 * Outside a transaction, reads of the same partner and shape that arrive while one of their statements is out share the
 * next statement (`Coalescer`): each still sees every write committed before it was asked.
 */
export function getCustomerWithParts(db: Db, partnerId: string, id: string, opts: PartsOptions): Promise<Found | undefined> {
  if (!isUuid(id)) return Promise.resolve(undefined);
  const base = baseOutsideTransaction(db);
  const limits = opts.limits as { dayStart: Date; monthStart: Date } | undefined;
  if (!base) return customerWithPartsQuery(db, partnerId, sql`${`{${id}}`}::uuid[]`, opts).then(([found]) => found && split(found));
  // Not async: the coalescer's promise is the answer itself (an async function returning it costs two more turns).
  let coalescer = reads.get(base);
  if (!coalescer) reads.set(base, (coalescer = new Coalescer()));
  // The windows as numbers in the group's key; as text only once per statement (a date's text is not free on a hot path).
  const group = `${partnerId}|${opts.balances ? 'b' : ''}|${limits?.dayStart.getTime() ?? ''}|${limits?.monthStart.getTime() ?? ''}`;
  return coalescer.get(group, id.toLowerCase(), async (ids) => {
    const dayStart = limits?.dayStart.toISOString();
    const monthStart = limits?.monthStart.toISOString();
    const rows = await preparedRead(base, opts).execute({ partnerId, ids: `{${ids.join(',')}}`, dayStart, monthStart });
    return new Map(rows.map((r) => [r.id, split(r)]));
  });
}

function split(found: CustomerRow & { parts: unknown }): Found {
  const { parts, ...row } = found;
  return { row, parts: json(parts) };
}
