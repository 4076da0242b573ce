// What `ops reconcile` reads from the books for one chain: every customer wallet on it, their ledger balances, and the chain transfers not yet counted.
import { and, eq, like, ne, sql } from 'drizzle-orm';
import type { EvmChain } from '../../domain/chain/settings';
import { type Db, inTransaction } from '../db';
import { balances, chainTransfers, wallets } from '../schema/index';

export interface BooksOfChain {
  wallets: { partnerId: string; customerId: string; address: string }[];
  /** `${customerId}/${asset}` → the customer's ledger balance (decimal string). */
  ledger: Map<string, string>;
  /** Chain transfers not yet counted (confirmed), of stablecoin. */
  open: { fromAddress: string; toAddress: string; asset: string; status: string; value: string; amount: string | null }[];
}

/** The books of `blockchain`, read in one repeatable-read transaction so that they agree with each other. */
export function booksOf(db: Db, blockchain: EvmChain): Promise<BooksOfChain> {
  return inTransaction(db, 
    async (tx) => {
      const list = await tx.select({ partnerId: wallets.partnerId, customerId: wallets.customerId, address: wallets.address }).from(wallets).where(eq(wallets.blockchain, blockchain));
      const rows = await tx
        .select({ account: balances.account, asset: balances.asset, balance: sql<string>`${balances.balance}::text` })
        .from(balances)
        .where(and(eq(balances.blockchain, blockchain), like(balances.account, 'customer:%')));
      const ledger = new Map(rows.map((r) => [`${r.account.slice('customer:'.length)}/${r.asset}`, r.balance]));
      const open = await tx
        .select({
          fromAddress: chainTransfers.fromAddress,
          toAddress: chainTransfers.toAddress,
          asset: chainTransfers.asset,
          status: chainTransfers.status,
          value: sql<string>`${chainTransfers.value}::text`,
          amount: sql<string | null>`${chainTransfers.amount}::text`,
        })
        .from(chainTransfers)
        .where(and(eq(chainTransfers.blockchain, blockchain), ne(chainTransfers.status, 'CONFIRMED'), ne(chainTransfers.kind, 'GAS')));
      return { wallets: list, ledger, open };
    },
    { isolationLevel: 'repeatable read' },
  );
}
