// `ops reconcile`: for every customer wallet and coin on each configured chain, the ledger against `balanceOf`, with what
// is in flight accounted for; a difference left over is stablecoin that moved behind the service's back.
import type { Address } from '../../domain/chain/chain-client';
import { fromBaseUnits, toBaseUnits } from '../../domain/chain/amounts';
import type { Stablecoin } from '../../domain/money';
import type { Db } from '../../store/db';
import { cursorOf } from '../../store/queries/chain-deposits';
import { booksOf } from '../../store/queries/reconcile';
import { ourAddresses } from './deposits';
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
  /**
   * What the chain holds and the ledger does not yet, or no longer: transfers to the wallet in a block but not yet
   * confirmed and deposits not yet credited (plus), an off-ramp's stablecoin the ledger took and the chain has not yet
   * moved (plus). A transfer sent but not yet in a block may show either way.
   */
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
  // Deposits the watcher has not credited yet (past its cursor, up to the head): on the chain, not yet on the ledger.
  const pending = new Map<string, bigint>();
  if (cursor && cursor.scannedBlock < head) {
    for (const [coin, token] of coins) {
      const logs = await chain.client.transferLogs(token, cursor.scannedBlock + 1n, head);
      const ours = await ourAddresses(db, chain, logs.map((l) => l.from));
      for (const log of logs) {
        if (ours.has(log.from.toLowerCase())) continue;
        const key = `${log.to.toLowerCase()}/${coin}`;
        pending.set(key, (pending.get(key) ?? 0n) + log.value);
      }
    }
  }
  // In flight per wallet and coin: `sure` the chain has beyond the ledger; `maybe` it may have too (sent, not yet in a block).
  const sure = new Map<string, bigint>(pending);
  const maybe = new Map<string, bigint>();
  const add = (m: Map<string, bigint>, key: string, v: bigint) => m.set(key, (m.get(key) ?? 0n) + v);
  for (const t of books.open) {
    const token = tokens[t.asset as Stablecoin];
    if (!token) continue;
    const units = t.amount !== null ? BigInt(t.amount) : toBaseUnits(t.value, await chain.decimals(t.asset as Stablecoin));
    const outOf = `${t.fromAddress.toLowerCase()}/${t.asset}`;
    const into = `${t.toAddress.toLowerCase()}/${t.asset}`;
    // Into a wallet (payout, refund): the ledger credits it at confirmation. Out of one (off-ramp): the ledger took it at creation.
    if (t.status === 'INCLUDED') add(sure, into, units);
    else if (t.status === 'QUEUED') add(sure, outOf, units);
    else {
      add(maybe, into, units);
      add(sure, outOf, units);
      add(maybe, outOf, -units);
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
        const inFlight = sure.get(key) ?? 0n;
        const expected = toBaseUnits(ledger, decimals) + inFlight;
        // A transfer sent but not yet in a block may land between the books' read and balanceOf: either side is fine.
        const swing = maybe.get(key) ?? 0n;
        const [low, high] = swing < 0n ? [expected + swing, expected] : [expected, expected + swing];
        if (onChain >= low && onChain <= high) return;
        discrepancies.push({
          blockchain,
          address: p.address,
          partnerId: p.partnerId,
          customerId: p.customerId,
          coin: p.coin,
          ledger: fromBaseUnits(toBaseUnits(ledger, decimals), decimals),
          chain: fromBaseUnits(onChain, decimals),
          inFlight: fromBaseUnits(inFlight, decimals),
          difference: (onChain - expected < 0n ? '-' : '') + fromBaseUnits(onChain - expected < 0n ? expected - onChain : onChain - expected, decimals),
        });
      }),
    );
  }
  return { checked: pairs.length, discrepancies };
}
