// Everything a customer read shows besides the customer row (documents and parties for the requirements, wallets, and
// optionally balances and limit usage) in ONE statement of json_agg subqueries: one round trip instead of six.
import { sql } from 'drizzle-orm';
import type { KycDocRow, KycPartyRow } from '../../flows/kyc-state';
import type { Db } from '../db';
import type { WalletRow } from './wallets';

export interface CustomerParts {
  docs: KycDocRow[];
  parties: KycPartyRow[];
  wallets: Pick<WalletRow, 'customerId' | 'blockchain' | 'address' | 'isDefault'>[];
  balances: { customerId: string; blockchain: string; asset: string; balance: string }[];
  overrides: { customerId: string; single: string | null; daily: string | null; monthly: string | null }[];
  used: { customerId: string; daily: string; monthly: string }[];
}

/** Numbers travel as text (never JSON numbers), so no amount loses a digit. */
export async function loadCustomerParts(
  db: Db,
  partnerId: string,
  customerIds: string[],
  opts: { balances?: boolean; limits?: { dayStart: Date; monthStart: Date } },
): Promise<CustomerParts> {
  const ids = sql`${`{${customerIds.join(',')}}`}::uuid[]`;
  const accounts = sql`${`{${customerIds.map((id) => `"customer:${id}"`).join(',')}}`}::text[]`;
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
                    COALESCE(SUM(amount_usd) FILTER (WHERE created_at >= ${opts.limits.dayStart.toISOString()}::timestamptz), 0)::text AS daily,
                    COALESCE(SUM(amount_usd), 0)::text AS monthly
             FROM limit_reservations
             WHERE partner_id = ${partnerId} AND customer_id = ANY(${ids}) AND released_at IS NULL AND created_at >= ${opts.limits.monthStart.toISOString()}::timestamptz
             GROUP BY customer_id) u)`
    : none;
  const result = await db.execute(sql`SELECT
    (SELECT coalesce(json_agg(json_build_object('customerId', customer_id, 'partyId', associated_party_id, 'type', type, 'side', side, 'status', status, 'id', id)), '[]')
       FROM documents WHERE partner_id = ${partnerId} AND customer_id = ANY(${ids})) AS docs,
    (SELECT coalesce(json_agg(json_build_object('customerId', customer_id, 'id', id, 'type', type)), '[]')
       FROM associated_parties WHERE partner_id = ${partnerId} AND customer_id = ANY(${ids})) AS parties,
    (SELECT coalesce(json_agg(json_build_object('customerId', customer_id, 'blockchain', blockchain, 'address', address, 'isDefault', is_default) ORDER BY blockchain), '[]')
       FROM wallets WHERE partner_id = ${partnerId} AND customer_id = ANY(${ids})) AS wallets,
    ${balances} AS balances, ${overrides} AS overrides, ${used} AS used`);
  const rows = (result as unknown as { rows?: Record<string, unknown>[] }).rows ?? (result as unknown as Record<string, unknown>[]);
  const row = rows[0]!;
  // node-postgres parses json columns; PGlite too. A string (some drivers) is parsed here.
  const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
  return {
    docs: json(row.docs),
    parties: json(row.parties),
    wallets: json(row.wallets),
    balances: json(row.balances),
    overrides: json(row.overrides),
    used: json(row.used),
  };
}
