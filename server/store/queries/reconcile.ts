// What `ops reconcile` reads from the books for one chain: every customer wallet on it, their ledger balances, and the payouts not yet counted.
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import type { EvmChain } from '../../domain/chain/settings';
import type { Db } from '../db';
import { balances, chainTransfers, wallets } from '../schema/index';

export interface BooksOfChain {
  wallets: { partnerId: string; customerId: string; address: string }[];
  /** `${customerId}/${asset}` → the customer's ledger balance (decimal string). */
  ledger: Map<string, string>;
  /** Payouts signed and not yet counted, per `${toAddress lower-case}/${asset}`: base units, split by whether a block holds them yet. */
  included: Map<string, bigint>;
  unmined: Map<string, bigint>;
}

/** The books of `blockchain`, read in one repeatable-read transaction so that they agree with each other. */
export function booksOf(db: Db, blockchain: EvmChain): Promise<BooksOfChain> {
  return db.transaction(
    async (tx) => {
      const list = await tx.select({ partnerId: wallets.partnerId, customerId: wallets.customerId, address: wallets.address }).from(wallets).where(eq(wallets.blockchain, blockchain));
      const rows = await tx
        .select({ account: balances.account, asset: balances.asset, balance: sql<string>`${balances.balance}::text` })
        .from(balances)
        .where(and(eq(balances.blockchain, blockchain), like(balances.account, 'customer:%')));
      const ledger = new Map(rows.map((r) => [`${r.account.slice('customer:'.length)}/${r.asset}`, r.balance]));
      const open = await tx
        .select({ to: chainTransfers.toAddress, asset: chainTransfers.asset, status: chainTransfers.status, units: sql<string | null>`sum(${chainTransfers.amount})::text` })
        .from(chainTransfers)
        .where(and(eq(chainTransfers.blockchain, blockchain), inArray(chainTransfers.status, ['SIGNED', 'SENT', 'INCLUDED'])))
        .groupBy(chainTransfers.toAddress, chainTransfers.asset, chainTransfers.status);
      const included = new Map<string, bigint>();
      const unmined = new Map<string, bigint>();
      for (const r of open) {
        const into = r.status === 'INCLUDED' ? included : unmined;
        const key = `${r.to.toLowerCase()}/${r.asset}`;
        into.set(key, (into.get(key) ?? 0n) + BigInt(r.units ?? '0'));
      }
      return { wallets: list, ledger, included, unmined };
    },
    { isolationLevel: 'repeatable read' },
  );
}
