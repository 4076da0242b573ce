// Transactions as they move: creation (quote redeemed, limits reserved, ledger written, all in one DB transaction), then each status change in its own, with its event and entries.
import { randomBytes } from 'node:crypto';
import type { Quote } from '../../src/contract/exchange-rates';
import type { OffRampRequest, OnRampRequest, Transaction, TransferRequest } from '../../src/contract/transactions';
import { type AccountRail, paymentEcho } from '../domain/bank-accounts';
import { brCode } from '../domain/brcode';
import { AppError, invalid } from '../domain/errors';
import { accounts, type Entry } from '../domain/ledger';
import { type Currency, Decimal, isCurrency, isFiat, isStablecoin, parseAmount } from '../domain/money';
import { eventType, failureStatus, initialStatus, isFinal, nextStatus, settlementEstimate, type TxStatus, type TxType } from '../domain/transactions';
import { type Blockchain, isValidAddress, transactionExplorerUrl } from '../domain/wallets';
import type { Deps } from '../http/deps';
import { isUuid, newId } from '../ids';
import type { Db } from '../store/db';
import { getBankAccount } from '../store/queries/bank-accounts';
import { type CustomerRow, lockCustomer } from '../store/queries/customers';
import { insertEvent } from '../store/queries/events';
import { redeemQuote } from '../store/queries/exchange-rates';
import { enqueueJob } from '../store/queries/jobs';
import { postMovement } from '../store/queries/ledger';
import { releaseReservation } from '../store/queries/limits';
import { insertTransaction, lockTransaction, type TransactionRow, updateTransaction } from '../store/queries/transactions';
import { walletsOf } from '../store/queries/wallets';
import { reserveLimit, toUsd, type UsdRates, usdRates } from './limits';
import { priceFor } from './quotes';

export const TX_STEP_JOB = 'transaction.step';
export const TX_EXPIRE_JOB = 'transaction.expire';
export const TX_PAY_JOB = 'transaction.pay';

/** How long a PIX BR Code can be paid. */
export const PAYMENT_WINDOW_SECONDS = 15 * 60;
/** The receiving side of our on-ramp payments (sandbox values; a production PSP account replaces them). */
const MERCHANT = { pixKey: '7d9f0d2e-5c1b-4f7a-9a63-2f0f3c1e8b42', name: 'Ramp Pagamentos Ltda', city: 'Sao Paulo', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' };

type TxDeps = Pick<Deps, 'clock' | 'rates' | 'config'>;

export function presentTransaction(t: TransactionRow): Transaction {
  return {
    id: t.id,
    customerId: t.customerId,
    type: t.type,
    request: t.request,
    ...(t.quote && t.type !== 'TRANSFER' ? { quote: t.quote as unknown as Quote } : {}),
    blockchain: t.blockchain,
    state: {
      status: t.status,
      ...(t.payment ? { payment: t.payment } : {}),
      ...(t.receipt ? { receipt: t.receipt as { transactionHash: string; blockExplorerUrl: string; targetAmount?: string } } : {}),
      ...(t.error ? { error: t.error } : {}),
      ...(t.estimatedSettlementAt ? { estimatedSettlementAt: t.estimatedSettlementAt.toISOString() } : {}),
    },
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

async function approvedCustomer(tx: Db, partnerId: string, customerId: string, path: string): Promise<CustomerRow> {
  const c = await lockCustomer(tx, partnerId, customerId);
  if (!c) throw invalid([{ path, message: 'is not a customer of yours' }]);
  if (c.verificationStatus !== 'APPROVED') {
    throw new AppError('INVALID_STATE', `The customer must be APPROVED to transact; it is ${c.verificationStatus}.`, { extra: { verificationStatus: c.verificationStatus } });
  }
  return c;
}

const chainHash = (chain: Blockchain) => (chain === 'TRON' ? '' : '0x') + randomBytes(32).toString('hex');

async function record(tx: Db, deps: TxDeps, row: TransactionRow, now: Date) {
  await insertEvent(tx, { partnerId: row.partnerId, customerId: row.customerId, eventType: eventType(row.type, row.status), data: presentTransaction(row) }, now);
}

async function scheduleStep(tx: Db, deps: TxDeps, row: TransactionRow, delayMs = deps.config.RAMP_SANDBOX_STEP_MS) {
  await enqueueJob(tx, { partnerId: row.partnerId, kind: TX_STEP_JOB, payload: { transactionId: row.id, from: row.status }, runAt: new Date(deps.clock.now().getTime() + delayMs) });
}

/** Rates of the moment, read before the DB transaction opens: USD mids for limits, and the pair's rate when a fresh price is needed. */
interface Market {
  usd: UsdRates;
  rate?: string;
}

async function readMarket(deps: TxDeps, pair?: { sourceCurrency?: string; targetCurrency?: string }): Promise<Market> {
  const now = deps.clock.now();
  const { sourceCurrency: s, targetCurrency: t } = pair ?? {};
  const [usd, rate] = await Promise.all([
    usdRates(deps.rates, now),
    isCurrency(s) && isCurrency(t) && s !== t && (isFiat(s) !== isFiat(t)) ? deps.rates.quoteRate(s, t, now) : Promise.resolve(undefined),
  ]);
  return { usd, rate };
}

/** The quote of a transaction: a LOCKED one redeemed now (once, this customer's, unexpired) or a fresh price. */
async function resolveQuote(
  tx: Db,
  deps: TxDeps,
  partnerId: string,
  customerId: string,
  transactionId: string,
  q: { exchangeRateId?: string; rail?: string; sourceCurrency?: string; targetCurrency?: string; sourceAmount?: string; blockchain?: Blockchain; partnerFeeId?: string },
  amountField: string,
  market: Market,
): Promise<Quote> {
  if (q.exchangeRateId) {
    const given = (['sourceCurrency', 'targetCurrency', 'sourceAmount'] as const).filter((k) => q[k] !== undefined);
    if (given.length) throw invalid(given.map((k) => ({ path: k === 'sourceAmount' ? amountField : k, message: 'comes from the locked quote (exchangeRateId); do not send it again' })));
    return redeemQuote(tx, { partnerId, customerId, id: q.exchangeRateId, usedBy: transactionId, now: deps.clock.now() });
  }
  const missing = (['sourceCurrency', 'targetCurrency', 'sourceAmount'] as const).filter((k) => q[k] === undefined);
  if (!q.rail) missing.push('rail' as never);
  if (missing.length) throw invalid(missing.map((k) => ({ path: k === 'sourceAmount' ? amountField : k, message: 'is required without an exchangeRateId' })));
  try {
    return await priceFor(tx, deps, partnerId, {
      customerId,
      type: 'FLOATING',
      rail: q.rail as Quote['rail'],
      sourceCurrency: q.sourceCurrency as Currency,
      targetCurrency: q.targetCurrency as Currency,
      sourceAmount: q.sourceAmount,
      blockchain: q.blockchain,
      partnerFeeId: q.partnerFeeId,
    }, market.rate);
  } catch (err) {
    // The off-ramp calls its stablecoin amount `amount`: name the field the client sent.
    if (err instanceof AppError && err.errors?.some((e) => e.path === 'sourceAmount') && amountField !== 'sourceAmount') {
      throw new AppError(err.code, err.detail.replaceAll('sourceAmount', amountField), { errors: err.errors.map((e) => ({ ...e, path: e.path === 'sourceAmount' ? amountField : e.path })), extra: err.extra });
    }
    throw err;
  }
}

/** Moves a customer's stablecoin into a clearing account until the transaction settles or is refunded (INSUFFICIENT_BALANCE if short). */
function holdFunds(
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

export async function createOnRamp(db: Db, deps: TxDeps, partnerId: string, body: OnRampRequest): Promise<TransactionRow> {
  const rail = body.rail ?? body.payment?.rail;
  if (body.rail && body.payment?.rail && body.rail !== body.payment.rail) throw invalid([{ path: 'payment.rail', message: 'disagrees with rail; send only rail' }]);
  const market = await readMarket(deps, body.exchangeRateId ? undefined : body);
  return db.transaction(async (tx) => {
    const id = newId();
    const customer = await approvedCustomer(tx, partnerId, body.customerId, 'customerId');
    const quote = await resolveQuote(tx, deps, partnerId, customer.id, id, { ...body, rail }, 'sourceAmount', market);
    if (!isFiat(quote.sourceCurrency) || !isStablecoin(quote.targetCurrency)) {
      throw invalid([{ path: body.exchangeRateId ? 'exchangeRateId' : 'sourceCurrency', message: 'an on-ramp converts fiat into a stablecoin' }]);
    }
    if (rail && rail !== quote.rail) throw invalid([{ path: 'rail', message: `the locked quote is for ${quote.rail}` }]);
    const blockchain = body.blockchain ?? quote.blockchain;
    const now = deps.clock.now();
    const amountUsd = toUsd(market.usd, quote.sourceCurrency, quote.sourceAmount);
    await reserveLimit(tx, deps, { partnerId, customerId: customer.id }, amountUsd, id);
    const expiresAt = new Date(now.getTime() + PAYMENT_WINDOW_SECONDS * 1000);
    const txid = id.replaceAll('-', '').slice(0, 25);
    const payment =
      quote.rail === 'PIX'
        ? { rail: 'PIX', brCode: brCode({ pixKey: MERCHANT.pixKey, amount: quote.sourceAmount, merchantName: MERCHANT.name, merchantCity: MERCHANT.city, txid }), expiresAt: expiresAt.toISOString() }
        : { rail: quote.rail, beneficiary: MERCHANT.name, iban: MERCHANT.iban, bic: MERCHANT.bic, reference: txid, amount: quote.sourceAmount, currency: quote.sourceCurrency, expiresAt: expiresAt.toISOString() };
    const row = await insertTransaction(tx, {
      id,
      partnerId,
      customerId: customer.id,
      type: 'ON_RAMP',
      status: initialStatus('ON_RAMP'),
      blockchain,
      request: {
        customerId: customer.id,
        purpose: body.purpose,
        rail: quote.rail,
        sourceCurrency: quote.sourceCurrency,
        sourceAmount: quote.sourceAmount,
        targetCurrency: quote.targetCurrency,
        blockchain,
        payment: { rail: quote.rail },
        ...(body.exchangeRateId ? { exchangeRateId: body.exchangeRateId } : {}),
        ...(quote.partnerFeeId ? { partnerFeeId: quote.partnerFeeId } : {}),
      },
      quote: { ...quote, blockchain } as unknown as Record<string, unknown>,
      payment,
      exchangeRateId: body.exchangeRateId ?? null,
      amountUsd,
      createdAt: now,
      updatedAt: now,
    });
    await record(tx, deps, row, now);
    await enqueueJob(tx, { partnerId, kind: TX_EXPIRE_JOB, payload: { transactionId: id }, runAt: expiresAt });
    if (deps.config.sandbox && deps.config.RAMP_SANDBOX_AUTOPAY_MS > 0) {
      await enqueueJob(tx, { partnerId, kind: TX_PAY_JOB, payload: { transactionId: id }, runAt: new Date(now.getTime() + deps.config.RAMP_SANDBOX_AUTOPAY_MS) });
    }
    return row;
  });
}

export async function createOffRamp(db: Db, deps: TxDeps, partnerId: string, body: OffRampRequest): Promise<TransactionRow> {
  const market = await readMarket(deps, body.exchangeRateId ? undefined : body);
  return db.transaction(async (tx) => {
    const id = newId();
    const account = await getBankAccount(tx, partnerId, body.bankAccountId);
    if (!account) throw invalid([{ path: 'bankAccountId', message: 'is not a bank account of yours' }]);
    const holder = account.holder as { relationship?: string };
    if (body.purpose === 'PERSONAL_ACCOUNT' && holder.relationship !== 'SELF') {
      throw invalid([{ path: 'purpose', message: 'PERSONAL_ACCOUNT is only for a bank account of the customer itself (relationship SELF)' }]);
    }
    if (account.holderStatus !== 'APPROVED') {
      throw new AppError('INVALID_STATE', `The bank account holder must be APPROVED; it is ${account.holderStatus}.`, { extra: { holderStatus: account.holderStatus } });
    }
    const customer = await approvedCustomer(tx, partnerId, account.customerId, 'bankAccountId');
    const quote = await resolveQuote(
      tx,
      deps,
      partnerId,
      customer.id,
      id,
      { exchangeRateId: body.exchangeRateId, rail: account.rail, sourceCurrency: body.sourceCurrency, targetCurrency: body.targetCurrency, sourceAmount: body.amount, blockchain: body.blockchain, partnerFeeId: body.partnerFeeId },
      'amount',
      market,
    );
    if (!isStablecoin(quote.sourceCurrency) || quote.targetCurrency !== account.currency || quote.rail !== account.rail) {
      throw invalid([{ path: body.exchangeRateId ? 'exchangeRateId' : 'targetCurrency', message: `an off-ramp to this account sells a stablecoin for ${account.currency} over ${account.rail}` }]);
    }
    const blockchain = body.blockchain ?? quote.blockchain;
    const now = deps.clock.now();
    const amountUsd = toUsd(market.usd, quote.sourceCurrency, quote.sourceAmount);
    await reserveLimit(tx, deps, { partnerId, customerId: customer.id }, amountUsd, id);
    // The customer's stablecoin leaves the wallet now, in this transaction: a balance can never be spent twice.
    await holdFunds(tx, { partnerId, customerId: customer.id, reference: id, clearing: 'offramp', blockchain, asset: quote.sourceCurrency, amount: quote.sourceAmount }, now);
    const row = await insertTransaction(tx, {
      id,
      partnerId,
      customerId: customer.id,
      type: 'OFF_RAMP',
      status: initialStatus('OFF_RAMP'),
      blockchain,
      request: {
        bankAccountId: account.id,
        purpose: body.purpose,
        sourceCurrency: quote.sourceCurrency,
        targetCurrency: quote.targetCurrency,
        amount: quote.sourceAmount,
        blockchain,
        ...(body.exchangeRateId ? { exchangeRateId: body.exchangeRateId } : {}),
        ...(quote.partnerFeeId ? { partnerFeeId: quote.partnerFeeId } : {}),
      },
      quote: { ...quote, blockchain } as unknown as Record<string, unknown>,
      payment: paymentEcho(account.rail as AccountRail, account.identifier),
      bankAccountId: account.id,
      exchangeRateId: body.exchangeRateId ?? null,
      amountUsd,
      createdAt: now,
      updatedAt: now,
    });
    await record(tx, deps, row, now);
    await scheduleStep(tx, deps, row);
    return row;
  });
}

export async function createTransfer(db: Db, deps: TxDeps, partnerId: string, body: TransferRequest): Promise<TransactionRow> {
  const amount = parseAmount(body.amount, body.currency);
  if (!amount.ok) throw invalid([{ path: 'amount', message: amount.message }]);
  const blockchain = body.blockchain ?? deps.config.RAMP_DEFAULT_BLOCKCHAIN;
  const market = await readMarket(deps);
  return db.transaction(async (tx) => {
    const id = newId();
    const from = await approvedCustomer(tx, partnerId, body.from, 'from');
    let destination: { customerId: string } | { address: string };
    if (isUuid(body.to)) {
      if (body.to.toLowerCase() === from.id) throw invalid([{ path: 'to', message: 'must be another customer or an address' }]);
      const to = await lockCustomer(tx, partnerId, body.to.toLowerCase());
      const wallet = to && (await walletsOf(tx, partnerId, [to.id])).find((w) => w.blockchain === blockchain);
      if (!to || !wallet) throw invalid([{ path: 'to', message: `is not an approved customer of yours with a ${blockchain} wallet` }]);
      destination = { customerId: to.id };
    } else {
      if (!isValidAddress(blockchain, body.to)) throw invalid([{ path: 'to', message: `is not a valid ${blockchain} address (nor a customer id)` }]);
      destination = { address: body.to };
    }
    const value = amount.value.toFixed(6);
    const now = deps.clock.now();
    const amountUsd = toUsd(market.usd, body.currency, value);
    await reserveLimit(tx, deps, { partnerId, customerId: from.id }, amountUsd, id);
    await holdFunds(tx, { partnerId, customerId: from.id, reference: id, clearing: 'transfer', blockchain, asset: body.currency, amount: value }, now);
    const row = await insertTransaction(tx, {
      id,
      partnerId,
      customerId: from.id,
      type: 'TRANSFER',
      status: initialStatus('TRANSFER'),
      blockchain,
      request: { currency: body.currency, from: from.id, to: body.to, amount: value, blockchain },
      quote: { currency: body.currency, amount: value, ...destination },
      amountUsd,
      createdAt: now,
      updatedAt: now,
    });
    await record(tx, deps, row, now);
    await scheduleStep(tx, deps, row);
    return row;
  });
}

/** The entries of reaching SUCCESS (or REFUNDED): what finally moves on the ledger for each type. */
function settlementEntries(row: TransactionRow, to: TxStatus): Entry[] {
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
    const dest = to === 'FAILED' ? accounts.customer(row.customerId) : q.customerId ? accounts.customer(q.customerId) : `external:${chain}`;
    return [
      { account: accounts.clearing('transfer'), blockchain: chain, asset: q.currency!, amount: `-${q.amount}` },
      { account: dest, blockchain: chain, asset: q.currency!, amount: q.amount! },
    ];
  }
  return [];
}

/** Moves a locked transaction to `to`, with the ledger entries, receipt, estimate and event that status carries, and schedules what comes next. */
async function moveTo(tx: Db, deps: TxDeps, row: TransactionRow, to: TxStatus, extra: Partial<TransactionRow> = {}): Promise<TransactionRow> {
  const now = deps.clock.now();
  const entries = settlementEntries(row, to);
  if (entries.length) await postMovement(tx, { partnerId: row.partnerId, kind: `${row.type.toLowerCase()}.${to.toLowerCase()}`, reference: row.id, entries }, now);
  const set: Partial<TransactionRow> = { status: to, updatedAt: now, ...extra };
  const q = row.quote as Record<string, string>;
  if (to === 'SUCCESS' || (row.type === 'OFF_RAMP' && to === 'TRADING')) {
    const hash = (row.receipt as { transactionHash?: string } | null)?.transactionHash ?? chainHash(row.blockchain);
    const targetAmount = row.type === 'ON_RAMP' ? q.finalTargetAmount : row.type === 'OFF_RAMP' ? q.finalTargetAmount : q.amount;
    set.receipt = { transactionHash: hash, blockExplorerUrl: transactionExplorerUrl(row.blockchain, hash, deps.config.sandbox), ...(to === 'SUCCESS' ? { targetAmount } : {}) };
  }
  if (row.type === 'OFF_RAMP' && to === 'TRANSFERRING_FIAT') {
    const payment = row.payment as { rail: AccountRail };
    set.estimatedSettlementAt = settlementEstimate(payment.rail, row.amountUsd, now);
  }
  if (to === 'FAILED' || to === 'REFUNDED') await releaseReservation(tx, row.partnerId, row.id, now);
  const moved = await updateTransaction(tx, row.id, set);
  await record(tx, deps, moved, now);
  if (!isFinal(to) && to !== 'AWAITING_FUNDS') await scheduleStep(tx, deps, moved);
  return moved;
}

async function locked(tx: Db, partnerId: string, id: string): Promise<TransactionRow> {
  const row = await lockTransaction(tx, partnerId, id);
  if (!row) throw new AppError('NOT_FOUND', 'Transaction not found');
  return row;
}

/** The payer paid (sandbox: /pay, or the autopay job). Only an on-ramp awaiting funds, within its payment window. */
export async function payOnRamp(db: Db, deps: TxDeps, partnerId: string, id: string): Promise<TransactionRow> {
  return db.transaction(async (tx) => {
    const row = await locked(tx, partnerId, id);
    if (row.type !== 'ON_RAMP' || row.status !== 'AWAITING_FUNDS') {
      throw new AppError('INVALID_STATE', `Only an on-ramp AWAITING_FUNDS can be paid; this one is ${row.type} ${row.status}.`);
    }
    const expiresAt = Date.parse(String((row.payment as { expiresAt?: string }).expiresAt));
    if (deps.clock.now().getTime() >= expiresAt) throw new AppError('INVALID_STATE', 'The payment window of this on-ramp has closed.');
    return moveTo(tx, deps, row, 'TRANSFERRING_FIAT');
  });
}

/** A failure (sandbox: /fail): an off-ramp is refunded, anything else fails; the limit reservation is released. */
export async function failTransaction(db: Db, deps: TxDeps, partnerId: string, id: string, error: { code: string; message: string }): Promise<TransactionRow> {
  return db.transaction(async (tx) => {
    const row = await locked(tx, partnerId, id);
    if (isFinal(row.status) || row.status === 'REFUNDING') throw new AppError('INVALID_STATE', `This transaction is already ${row.status}.`);
    if (row.type === 'ON_RAMP' && row.status !== 'AWAITING_FUNDS' && row.status !== 'TRANSFERRING_FIAT') {
      // The fiat is in and the trade ran: an on-ramp this far along is completed, not failed.
      throw new AppError('INVALID_STATE', `An on-ramp can fail while AWAITING_FUNDS or TRANSFERRING_FIAT, not ${row.status}.`);
    }
    return moveTo(tx, deps, row, failureStatus(row.type), { error });
  });
}

/** Job: the next status on the happy path, if the transaction is still where the job found it. */
export async function stepJob(tx: Db, deps: TxDeps, job: { partnerId: string; payload: Record<string, unknown> }): Promise<void> {
  const row = await lockTransaction(tx, job.partnerId, String(job.payload.transactionId));
  if (!row || row.status !== job.payload.from) return;
  const to = nextStatus(row.type, row.status);
  if (to) await moveTo(tx, deps, row, to);
}

/** Job: an on-ramp still unpaid when its window closes fails with EXPIRED. */
export async function expireJob(tx: Db, deps: TxDeps, job: { partnerId: string; payload: Record<string, unknown> }): Promise<void> {
  const row = await lockTransaction(tx, job.partnerId, String(job.payload.transactionId));
  if (!row || row.status !== 'AWAITING_FUNDS') return;
  await moveTo(tx, deps, row, 'FAILED', { error: { code: 'EXPIRED', message: 'The payment window closed before the payment arrived.' } });
}

/** Job (sandbox autopay): pays an on-ramp as a payer would. */
export async function autopayJob(db: Db, deps: TxDeps, job: { partnerId: string; payload: Record<string, unknown> }): Promise<void> {
  await payOnRamp(db, deps, job.partnerId, String(job.payload.transactionId)).catch((err) => {
    if (!(err instanceof AppError)) throw err;
  });
}

export type { TxType };
