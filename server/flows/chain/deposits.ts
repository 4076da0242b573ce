// Deposits: stablecoin sent to a customer's wallet from anywhere, found in the token's Transfer logs once confirmed, and
// credited to the ledger exactly once (the deposit row, its ledger movement, its event and the cursor's move commit together).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Address, TransferLog } from '../../domain/chain/chain-client';
import { fromBaseUnits } from '../../domain/chain/amounts';
import { accounts } from '../../domain/ledger';
import { Decimal, type Stablecoin } from '../../domain/money';
import type { Deps } from '../../deps';
import { type Db, inTransaction } from '../../store/db';
import { presentDeposit } from '../../presenters';
import { advanceCursor, cursorOf, initCursor, insertDeposit, leadCursor, lockCursorAt, releaseCursor } from '../../store/queries/chain-deposits';
import { walletsAt } from '../../store/queries/wallets';
import { insertEvent } from '../../store/queries/events';
import { postMovement } from '../../store/queries/ledger';
import type { ChainRuntime } from './chains';
import { crashPoint } from './crash-point';

/** Blocks scanned in one pass at most: node providers cap eth_getLogs ranges (often at 2,000 to 10,000 blocks). */
export const MAX_SCAN_BLOCKS = 2000n;

/** The event of a credited deposit (documented with the webhooks in docs/webhooks.md). */
export const DEPOSIT_EVENT = 'deposit.confirmed';

export type DepositDeps = Pick<Deps, 'store' | 'config' | 'logger' | 'chains'>;

/** This process's name as a watcher: a lease names its owner, so a process renews only its own. */
export const watcherName = (): string => `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

/**
 * The highest block whose logs count: a block at height h has `head - h + 1` confirmations (it counts itself), so with
 * `confirmations` needed, h ≤ head - confirmations + 1.
 */
export const confirmedHeight = (head: bigint, confirmations: number): bigint => head - BigInt(confirmations) + 1n;

export interface ScanResult {
  /** false: another process watches this chain now (its lease runs), or the cursor moved under us. */
  led: boolean;
  credited: number;
  scannedTo?: bigint;
  /** Confirmed blocks past the cursor, still to scan after this pass (0 when it is current). */
  behind?: bigint;
}

/**
 * One pass over `chain`: leads it (or leaves it to the process that does), reads the Transfer logs of its tokens in the
 * confirmed blocks past the cursor, and credits the ones to our customers' wallets. Every node call happens before the DB
 * transaction; the transaction commits only if this process still leads and the cursor has not moved, so two processes
 * (a lease that ran out under a slow pass) never credit a block twice, and a crash before the commit scans it again.
 */
export async function scanDeposits(deps: DepositDeps, chain: ChainRuntime, owner: string, leaseMs: number): Promise<ScanResult> {
  const db = deps.store.db;
  const { blockchain, confirmations, tokens } = chain.settings;
  const now = new Date();
  let cursor = await leadCursor(db, blockchain, owner, now, leaseMs);
  if (!cursor && !(await cursorOf(db, blockchain))) {
    // The chain's first watcher starts at the blocks not yet confirmed: a new service owes nothing for older ones.
    const head = await chain.client.blockNumber();
    const start = confirmedHeight(head, confirmations) - 1n;
    await initCursor(db, blockchain, start > 0n ? start : 0n, now);
    cursor = await leadCursor(db, blockchain, owner, now, leaseMs);
  }
  if (!cursor) return { led: false, credited: 0 };
  const head = await chain.client.blockNumber();
  const safe = confirmedHeight(head, confirmations);
  const from = cursor.scannedBlock + 1n;
  const to = safe < cursor.scannedBlock + MAX_SCAN_BLOCKS ? safe : cursor.scannedBlock + MAX_SCAN_BLOCKS;
  const behindOf = (scanned: bigint) => (safe > scanned ? safe - scanned : 0n);
  if (to < from) return { led: true, credited: 0, scannedTo: cursor.scannedBlock, behind: behindOf(cursor.scannedBlock) };
  const found: { coin: Stablecoin; token: Address; decimals: number; log: TransferLog }[] = [];
  for (const [coin, token] of Object.entries(tokens) as [Stablecoin, Address][]) {
    const decimals = await chain.decimals(coin);
    for (const log of await chain.client.transferLogs(token, from, to)) found.push({ coin, token, decimals, log });
  }
  // Transfers the service made itself reach customer wallets too (the treasury's payouts and refunds, transfers between
  // customers): those are credited by their own transactions when confirmed, never as deposits.
  const ours = await ourAddresses(db, chain, found.map((f) => f.log.from));
  const incoming = found.filter((f) => !ours.has(f.log.from.toLowerCase()) && f.log.value > 0n);
  const owners = new Map((await walletsAt(db, blockchain, [...new Set(incoming.map((f) => f.log.to))])).map((w) => [w.address.toLowerCase(), w]));
  const deposits = incoming.flatMap((f) => {
    const wallet = owners.get(f.log.to.toLowerCase());
    return wallet ? [{ ...f, wallet }] : [];
  });
  if (deposits.length > 0) crashPoint(deps, 'deposits-read');
  const credited = await inTransaction(db, async (tx) => {
    if (!(await lockCursorAt(tx, blockchain, owner, cursor.scannedBlock))) return undefined;
    const at = new Date();
    let n = 0;
    for (const { coin, token, decimals, log, wallet } of deposits) {
      // The ledger keeps 6 decimals: what a token with more has past the sixth is left on the chain, uncredited.
      const value = new Decimal(fromBaseUnits(log.value, decimals)).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(6);
      const row = await insertDeposit(
        tx,
        {
          partnerId: wallet.partnerId,
          customerId: wallet.customerId,
          blockchain,
          asset: coin,
          token,
          fromAddress: log.from,
          toAddress: wallet.address,
          value,
          amount: log.value.toString(),
          transactionHash: log.transactionHash,
          logIndex: log.logIndex,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash,
        },
        at,
      );
      if (!row) continue;
      if (new Decimal(value).isZero()) continue;
      await postMovement(
        tx,
        {
          partnerId: row.partnerId,
          kind: 'deposit.confirmed',
          reference: row.id,
          entries: [
            { account: accounts.deposits(blockchain), blockchain, asset: coin, amount: `-${value}` },
            { account: accounts.customer(row.customerId), blockchain, asset: coin, amount: value },
          ],
        },
        at,
      );
      await insertEvent(tx, { partnerId: row.partnerId, customerId: row.customerId, eventType: DEPOSIT_EVENT, data: presentDeposit(row, deps.config.sandbox) }, at);
      n++;
    }
    await advanceCursor(tx, blockchain, to, at);
    return n;
  });
  if (credited === undefined) return { led: false, credited: 0 };
  if (credited > 0) deps.logger.info({ blockchain, from: from.toString(), to: to.toString(), credited }, 'deposits credited');
  return { led: true, credited, scannedTo: to, behind: behindOf(to) };
}

/** Which of `senders` (lower-cased) are the service's own: the chain's treasury, or a wallet it issued. */
export async function ourAddresses(db: Db, chain: ChainRuntime, senders: string[]): Promise<Set<string>> {
  const wallets = await walletsAt(db, chain.settings.blockchain, [...new Set(senders)]);
  return new Set([chain.treasury.address, ...wallets.map((w) => w.address)].map((a) => a.toLowerCase()));
}

/** Lets the chain's lease go when this process stops, so another need not wait for it to run out. */
export function stopWatching(deps: DepositDeps, chain: ChainRuntime, owner: string): Promise<void> {
  return releaseCursor(deps.store.db, chain.settings.blockchain, owner, new Date());
}
