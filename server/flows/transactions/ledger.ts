// Ledger rules of transactions: the hold taken when a transaction starts, and what moves when it settles, fails or is refunded.
import { accounts, type Entry } from '../../domain/ledger';
import { Decimal } from '../../domain/money';
import type { TxStatus } from '../../domain/transactions';
import type { Blockchain } from '../../domain/wallets';
import type { Db } from '../../store/db';
import { postMovement } from '../../store/queries/ledger';
import type { TransactionRow } from '../../store/queries/transactions';

/** Moves a customer's stablecoin into a clearing account until the transaction settles or is refunded (INSUFFICIENT_BALANCE if short). */
export function holdFunds(
  tx: Db,
  h: { partnerId: string; customerId: string; reference: string; clearing: string; blockchain: Blockchain; asset: string; amount: string },
  now: Date,
) {
  const { blockchain, asset, amount } = h;
  return postMovement(
    tx,
    {
      partnerId: h.partnerId,
      kind: `${h.clearing}.debit`,
      reference: h.reference,
      entries: [
        { account: accounts.customer(h.customerId), blockchain, asset, amount: `-${amount}` },
        { account: accounts.clearing(h.clearing), blockchain, asset, amount },
      ],
    },
    now,
  );
}

/** The entries of reaching SUCCESS (or REFUNDED): what finally moves on the ledger for each type. */
export function settlementEntries(row: TransactionRow, to: TxStatus): Entry[] {
  const q = row.quote as Record<string, string> & { fees?: { service: { totalAmount: string }; partner: { totalAmount: string } } };
  const chain = row.blockchain;
  if (row.type === 'ON_RAMP' && to === 'SUCCESS') {
    const asset = q.targetCurrency!;
    const entries: Entry[] = [
      { account: accounts.clearing('onramp'), blockchain: chain, asset, amount: `-${q.baseTargetAmount}` },
      { account: accounts.customer(row.customerId), blockchain: chain, asset, amount: q.finalTargetAmount! },
    ];
    if (!new Decimal(q.fees!.service.totalAmount).isZero()) entries.push({ account: accounts.serviceFees, blockchain: chain, asset, amount: q.fees!.service.totalAmount });
    if (!new Decimal(q.fees!.partner.totalAmount).isZero()) entries.push({ account: accounts.partnerFees(q.partnerFeeId!), blockchain: chain, asset, amount: q.fees!.partner.totalAmount });
    return entries;
  }
  if (row.type === 'OFF_RAMP' && to === 'SUCCESS') {
    return [
      { account: accounts.clearing('offramp'), blockchain: chain, asset: q.sourceCurrency!, amount: `-${q.sourceAmount}` },
      { account: accounts.clearing('liquidity'), blockchain: chain, asset: q.sourceCurrency!, amount: q.sourceAmount! },
    ];
  }
  if (row.type === 'OFF_RAMP' && to === 'REFUNDED') {
    return [
      { account: accounts.clearing('offramp'), blockchain: chain, asset: q.sourceCurrency!, amount: `-${q.sourceAmount}` },
      { account: accounts.customer(row.customerId), blockchain: chain, asset: q.sourceCurrency!, amount: q.sourceAmount! },
    ];
  }
  if (row.type === 'TRANSFER' && (to === 'SUCCESS' || to === 'FAILED')) {
    const dest =
      to === 'FAILED' ? accounts.customer(row.customerId) : q.customerId ? accounts.customer(q.customerId) : q.creditPartnerId ? accounts.clearing('interpartner') : accounts.external(chain);
    return [
      { account: accounts.clearing('transfer'), blockchain: chain, asset: q.currency!, amount: `-${q.amount}` },
      { account: dest, blockchain: chain, asset: q.currency!, amount: q.amount! },
    ];
  }
  return [];
}

/**
 * A transfer to an address we issued to another partner's customer stays in our books: the sender's ledger moves it to
 * `clearing:interpartner`, and this movement, in the receiving partner's ledger, takes it from there to the customer.
 */
export function interpartnerCredit(row: TransactionRow, to: TxStatus): { partnerId: string; entries: Entry[] } | undefined {
  const q = row.quote as Record<string, string>;
  if (row.type !== 'TRANSFER' || to !== 'SUCCESS' || !q.creditPartnerId || !q.creditCustomerId) return undefined;
  return {
    partnerId: q.creditPartnerId,
    entries: [
      { account: accounts.clearing('interpartner'), blockchain: row.blockchain, asset: q.currency!, amount: `-${q.amount}` },
      { account: accounts.customer(q.creditCustomerId), blockchain: row.blockchain, asset: q.currency!, amount: q.amount! },
    ],
  };
}
