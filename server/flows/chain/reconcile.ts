// `ops reconcile`: for every customer wallet and coin on each configured chain, the ledger against `balanceOf`, with what
// is in flight accounted for; a difference left over is stablecoin that moved behind the service's back.
import type { Address } from '../../domain/chain/chain-client';
import { fromBaseUnits, toBaseUnits } from '../../domain/chain/amounts';
import type { Stablecoin } from '../../domain/money';
import type { Db } from '../../store/db';
import { cursorOf } from '../../store/queries/chain-deposits';
import { booksOf } from '../../store/queries/reconcile';
import type { ChainRuntime, Chains } from './chains';

export interface Discrepancy {
  blockchain: string;
  address: string;
  partnerId: string;
  customerId: string;
  coin: Stablecoin;
  /** The customer's ledger balance. */
  ledger: string;
  /** `balanceOf` on the node. */
  chain: string;
  /** What may be on the chain and not yet on the ledger: payouts in a block not yet confirmed, deposits not yet confirmed (and, as a range, payouts sent but not yet in a block). */
  inFlight: string;
  /** chain − ledger − in flight (the part no known movement explains). */
  difference: string;
}

export interface ReconcileReport {
  ok: boolean;
  discrepancies: Discrepancy[];
  /** Wallet × coin pairs compared. */
  checked: number;
  /** Chains whose node did not answer: not compared, and the report is not ok. */
  errors: { blockchain: string; error: string }[];
}

/** How many balanceOf calls run at once against one node. */
const CONCURRENCY = 8;

export async function reconcile(db: Db, chains: Chains): Promise<ReconcileReport> {
  const report: ReconcileReport = { ok: true, discrepancies: [], checked: 0, errors: [] };
  for (const chain of chains.list()) {
    try {
      const { checked, discrepancies } = await reconcileChain(db, chain);
      report.checked += checked;
      report.discrepancies.push(...discrepancies);
    } catch (err) {
      report.errors.push({ blockchain: chain.settings.blockchain, error: (err as Error).message.split('\n')[0]!.replace(/\bhttps?:\/\/\S+/g, '<rpc>') });
    }
  }
  report.ok = report.discrepancies.length === 0 && report.errors.length === 0;
  return report;
}

async function reconcileChain(db: Db, chain: ChainRuntime): Promise<{ checked: number; discrepancies: Discrepancy[] }> {
  const { blockchain, tokens } = chain.settings;
  const books = await booksOf(db, blockchain);
  const head = await chain.client.blockNumber();
  const cursor = await cursorOf(db, blockchain);
  const coins = Object.entries(tokens) as [Stablecoin, Address][];
  const treasury = chain.treasury.address.toLowerCase();
  // Deposits the watcher has not credited yet (past its cursor, up to the head): on the chain, not yet on the ledger.
  const pending = new Map<string, bigint>();
  if (cursor && cursor.scannedBlock < head) {
    for (const [coin, token] of coins) {
      for (const log of await chain.client.transferLogs(token, cursor.scannedBlock + 1n, head)) {
        if (log.from.toLowerCase() === treasury) continue;
        const key = `${log.to.toLowerCase()}/${coin}`;
        pending.set(key, (pending.get(key) ?? 0n) + log.value);
      }
    }
  }
  const pairs = books.wallets.flatMap((w) => coins.map(([coin, token]) => ({ ...w, coin, token })));
  const discrepancies: Discrepancy[] = [];
  for (let i = 0; i < pairs.length; i += CONCURRENCY) {
    await Promise.all(
      pairs.slice(i, i + CONCURRENCY).map(async (p) => {
        const decimals = await chain.decimals(p.coin);
        const onChain = await chain.client.tokenBalance(p.token, p.address as Address);
        const ledger = books.ledger.get(`${p.customerId}/${p.coin}`) ?? '0';
        const key = `${p.address.toLowerCase()}/${p.coin}`;
        const sure = (books.included.get(key) ?? 0n) + (pending.get(key) ?? 0n);
        const maybe = books.unmined.get(key) ?? 0n;
        const expected = toBaseUnits(ledger, decimals) + sure;
        // A payout sent but not yet in a block may land between the books' read and balanceOf: either is fine.
        if (onChain >= expected && onChain <= expected + maybe) return;
        discrepancies.push({
          blockchain,
          address: p.address,
          partnerId: p.partnerId,
          customerId: p.customerId,
          coin: p.coin,
          ledger: fromBaseUnits(toBaseUnits(ledger, decimals), decimals),
          chain: fromBaseUnits(onChain, decimals),
          inFlight: fromBaseUnits(sure, decimals),
          difference: (onChain - expected < 0n ? '-' : '') + fromBaseUnits(onChain - expected < 0n ? expected - onChain : onChain - expected, decimals),
        });
      }),
    );
  }
  return { checked: pairs.length, discrepancies };
}
