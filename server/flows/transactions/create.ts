// Creating transactions: quote redeemed, limits reserved, funds held, row, event and next step written, all in one DB transaction.
import type { Quote } from '../../../src/contract/exchange-rates';
import type { OffRampRequest, OnRampRequest, TransferRequest } from '../../../src/contract/transactions';
import { type AccountRail, paymentEcho } from '../../domain/bank-accounts';
import { AppError, invalid, unknownReference } from '../../domain/errors';
import { amountErrorCode, isFiat, isStablecoin, parseAmount } from '../../domain/money';
import { initialStatus } from '../../domain/transactions';
import { isValidAddress } from '../../domain/wallets';
import { isUuid, newId } from '../../ids';
import { type Db, inTransaction } from '../../store/db';
import { getBankAccount } from '../../store/queries/bank-accounts';
import { type CustomerRow, lockCustomer, lockCustomerWithUsage } from '../../store/queries/customers';
import { type LimitUsage, reservationInsert } from '../../store/queries/limits';
import { asInserted, insertTransaction, type TransactionRow } from '../../store/queries/transactions';
import { jobsInsert, wakeWorkers } from '../../store/queries/jobs';
import { walletOwner, walletsOf } from '../../store/queries/wallets';
import { checkReservedLimit, reserveLimit, toUsd } from '../limits';
import { limitWindows } from '../../domain/limits';
import { requireChain } from '../chain/chains';
import type { TxDeps } from './deps';
import { Decimal } from 'decimal.js';
import { type Debtor, txidForKey, txidOf } from '../../domain/pix/pix-psp';
import type { Rider } from '../../store/reusable';
import { getCustomer } from '../../store/queries/customers';
import { pixChargeInsert } from '../../store/queries/pix';
import { createCharge } from '../pix/charges';
import { crashPoint } from '../pix/crash';
import { holdFunds } from './ledger';
import { record, recordRider } from './lifecycle';
import { readMarket, resolveQuote } from './quote';
import { onRampDeadlines, PAYMENT_WINDOW_SECONDS, scheduleStep } from './rails';

/**
 * The customer, locked, with its limit usage as of the lock (the limit check that follows needs no statement of its
 * own), counted in the windows of `at`; `add`, this transaction's reservation when it is already inserted (an on-ramp's).
 */
async function approvedCustomer(tx: Db, deps: TxDeps, partnerId: string, customerId: string, path: string, at = deps.clock.now(), add = '0'): Promise<CustomerRow & { usage: LimitUsage }> {
  const c = await lockCustomerWithUsage(tx, partnerId, customerId, limitWindows(at), add);
  if (!c) throw unknownReference(path, 'customer');
  if (c.verificationStatus !== 'APPROVED') {
    throw new AppError('INVALID_STATE', `The customer must be APPROVED to transact; it is ${c.verificationStatus}.`, { extra: { verificationStatus: c.verificationStatus } });
  }
  return c;
}

/**
 * `step`'s answer; when it refuses (an AppError), the customer's refusal is told first: `customer` (the customer locked
 * and checked) runs before the step's refusal is thrown, and throws its own when it has one. A transaction's quote is
 * resolved this way before its customer is locked: a LOCKED quote is redeemed (a lock on the quote's row) first, so the
 * customer's lock, which every transaction of that customer waits for, is held for less. Every path that redeems a
 * quote takes the two in this order (no deadlock between them).
 */
async function customerRefusalFirst<T>(customer: () => Promise<unknown>, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof AppError) await customer();
    throw err;
  }
}

/**
 * An on-ramp writes first and locks its customer last: the quote is redeemed, the transaction inserted with its
 * reservation, event and payment deadlines (one statement), and only then is the customer locked with its limit usage,
 * checked (APPROVED, within limits counting this reservation) and the transaction committed; a refusal rolls it all
 * back. The customer's lock, which every on-ramp of that customer waits for, is held from that statement to the COMMIT
 * alone. No foreign key points at a customer, so the insert takes no lock on the customer's row. The customer's refusal
 * is still told first: a refused or mismatched quote is answered after the customer's checks.
 */
export async function createOnRamp(db: Db, deps: TxDeps, partnerId: string, body: OnRampRequest, opts: { idempotencyKey?: string } = {}): Promise<TransactionRow> {
  const rail = body.rail ?? body.payment?.rail;
  if (body.rail && body.payment?.rail && body.rail !== body.payment.rail) throw invalid([{ path: 'payment.rail', message: 'disagrees with rail; send only rail', code: 'CONFLICTING_FIELDS' }]);
  const market = await readMarket(deps, body.exchangeRateId ? undefined : body);
  // Ids are stored lower case (the uuid column's own text form), the echo in `request` too.
  const customerId = body.customerId.toLowerCase();
  let charged: string | undefined;
  return inTransaction(db, async (tx) => {
    const id = newId();
    const now = deps.clock.now();
    // Locked with no reservation of its own when a refusal is about to roll everything back; with it, last.
    const customer = (reserved = '0') => approvedCustomer(tx, deps, partnerId, customerId, 'customerId', now, reserved);
    const quote = await customerRefusalFirst(customer, async () => {
      const q = await resolveQuote(tx, deps, partnerId, customerId, id, { ...body, rail }, 'sourceAmount', market);
      if (!isFiat(q.sourceCurrency) || !isStablecoin(q.targetCurrency)) {
        throw invalid([{ path: body.exchangeRateId ? 'exchangeRateId' : 'sourceCurrency', message: 'an on-ramp converts fiat into a stablecoin', code: 'CONFLICTING_FIELDS' }]);
      }
      if (rail && rail !== q.rail) throw invalid([{ path: 'rail', message: `the locked quote is for ${q.rail}`, code: 'CONFLICTING_FIELDS' }]);
      return q;
    });
    const blockchain = body.blockchain ?? quote.blockchain;
    requireChain(deps, blockchain, quote.targetCurrency);
    const amountUsd = toUsd(market.usd, quote.sourceCurrency, quote.sourceAmount);
    const expiresAt = new Date(now.getTime() + PAYMENT_WINDOW_SECONDS * 1000);
    // The reference a payer quotes (a PIX txid is at most 25 alphanumerics).
    const reference = id.replaceAll('-', '').slice(0, 25);
    let payment: Record<string, string>;
    const riders: Rider[] = [];
    if (quote.rail === 'PIX' && deps.pix) {
      // Through the PSP: its charge is the payment, created before the row (its BR Code is in the row) and removed
      // again when this transaction rolls back (see removeOrphanCharge). A PSP that cannot be reached is a 503, and the
      // rollback leaves nothing behind: no transaction, no reservation, no redeemed quote.
      const c = await getCustomer(tx, partnerId, customerId);
      if (c?.verificationStatus !== 'APPROVED') await customer();
      // With an Idempotency-Key the txid comes from it: the same request asked again finds the charge a dead try made.
      const charge = await createCharge(
        deps.pix,
        {
          txid: opts.idempotencyKey ? txidForKey(partnerId, opts.idempotencyKey) : txidOf(id),
          expiracao: PAYMENT_WINDOW_SECONDS,
          valor: new Decimal(quote.sourceAmount).toFixed(2),
          chave: deps.pix.chave,
          ...(c ? debtorOf(c) : {}),
          solicitacaoPagador: 'Ramp on-ramp',
        },
        txidOf(id),
      );
      charged = charge.txid;
      crashPoint(deps, 'after-charge-created');
      payment = { rail: 'PIX', brCode: charge.pixCopiaECola!, expiresAt: expiresAt.toISOString() };
      // On the wall clock, as the PSP and the monitor are (a sandbox partner's clock may be ahead of it).
      const wall = new Date();
      riders.push(pixChargeInsert({ txid: charged, partnerId, transactionId: id, valor: charge.valor, expiresAt: new Date(wall.getTime() + PAYMENT_WINDOW_SECONDS * 1000) }, wall));
    } else {
      payment = deps.settlement.payIn({ rail: quote.rail, currency: quote.sourceCurrency, amount: quote.sourceAmount, reference, expiresAt });
    }
    const values = {
      id,
      partnerId,
      customerId,
      type: 'ON_RAMP',
      status: initialStatus('ON_RAMP'),
      blockchain,
      request: {
        customerId,
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
    } satisfies Parameters<typeof insertTransaction>[1];
    // One statement for the row, its reservation, its event and its payment deadlines (the event and the deadlines are
    // made from the row as the insert stores it).
    const created = asInserted(values);
    const reservation = reservationInsert({ partnerId, customerId, amountUsd, reference: id }, now);
    const row = await insertTransaction(tx, values, [reservation, recordRider(created, now), jobsInsert(onRampDeadlines(deps, created, expiresAt)), ...riders]);
    checkReservedLimit(await customer(amountUsd), amountUsd);
    wakeWorkers();
    return row;
  }).catch(async (err) => {
    if (charged && deps.pix) await removeOrphanCharge(deps.pix, charged);
    throw err;
  });
}

/** The charge of an on-ramp that was not created after all (refused, or the database failed): removed, best effort (it expires anyway, and no one was shown its BR Code). */
async function removeOrphanCharge(psp: NonNullable<TxDeps['pix']>, txid: string): Promise<void> {
  await psp.removeCharge(txid).catch(() => undefined);
}

/** The payer a charge names (API Pix `devedor`): a CPF or CNPJ and the name, when the customer's tax id is Brazilian. */
function debtorOf(c: CustomerRow): { devedor?: Debtor } {
  const digits = c.taxId.replace(/\D/g, '');
  const nome = (c.type === 'BUSINESS' ? c.legalName : c.name)?.slice(0, 200);
  if (!nome) return {};
  if (digits.length === 11) return { devedor: { cpf: digits, nome } };
  if (digits.length === 14) return { devedor: { cnpj: digits, nome } };
  return {};
}

export async function createOffRamp(db: Db, deps: TxDeps, partnerId: string, body: OffRampRequest): Promise<TransactionRow> {
  const market = await readMarket(deps, body.exchangeRateId ? undefined : body);
  return inTransaction(db, async (tx) => {
    const id = newId();
    const account = await getBankAccount(tx, partnerId, body.bankAccountId);
    if (!account) throw unknownReference('bankAccountId', 'bank account');
    const holder = account.holder as { relationship?: string };
    if (body.purpose === 'PERSONAL_ACCOUNT' && holder.relationship !== 'SELF') {
      throw invalid([{ path: 'purpose', message: 'PERSONAL_ACCOUNT is only for a bank account of the customer itself (relationship SELF)', code: 'NOT_ALLOWED' }]);
    }
    if (account.holderStatus !== 'APPROVED') {
      throw new AppError('INVALID_STATE', `The bank account holder must be APPROVED; it is ${account.holderStatus}.`, { extra: { holderStatus: account.holderStatus } });
    }
    const lockHolder = () => approvedCustomer(tx, deps, partnerId, account.customerId, 'bankAccountId');
    const quote = await customerRefusalFirst(lockHolder, () =>
      resolveQuote(
        tx,
        deps,
        partnerId,
        account.customerId,
        id,
        { exchangeRateId: body.exchangeRateId, rail: account.rail, sourceCurrency: body.sourceCurrency, targetCurrency: body.targetCurrency, sourceAmount: body.amount, blockchain: body.blockchain, partnerFeeId: body.partnerFeeId },
        'amount',
        market,
      ),
    );
    const customer = await lockHolder();
    if (!isStablecoin(quote.sourceCurrency) || quote.targetCurrency !== account.currency || quote.rail !== account.rail) {
      throw invalid([{ path: body.exchangeRateId ? 'exchangeRateId' : 'targetCurrency', message: `an off-ramp to this account sells a stablecoin for ${account.currency} over ${account.rail}`, code: 'CONFLICTING_FIELDS' }]);
    }
    const blockchain = body.blockchain ?? quote.blockchain;
    requireChain(deps, blockchain, quote.sourceCurrency);
    const now = deps.clock.now();
    const amountUsd = toUsd(market.usd, quote.sourceCurrency, quote.sourceAmount);
    await reserveLimit(tx, deps, { partnerId, customerId: customer.id, locked: customer }, amountUsd, id);
    // The customer's stablecoin leaves the wallet now, in this transaction: a balance can never be spent twice.
    await holdFunds(tx, { partnerId, customerId: customer.id, reference: id, clearing: 'offramp', blockchain, asset: quote.sourceCurrency, amount: quote.sourceAmount }, now);
    return insertStarted(tx, deps, now, {
      id,
      partnerId,
      customerId: customer.id,
      type: 'OFF_RAMP',
      blockchain,
      request: {
        bankAccountId: account.id,
        purpose: body.purpose,
        sourceCurrency: quote.sourceCurrency,
        targetCurrency: quote.targetCurrency,
        amount: quote.sourceAmount,
        blockchain,
        // The spec's echo carries `payment`: the destination the bank account stands for.
        payment: paymentEcho(account.rail as AccountRail, account.identifier),
        ...(body.exchangeRateId ? { exchangeRateId: body.exchangeRateId } : {}),
        ...(quote.partnerFeeId ? { partnerFeeId: quote.partnerFeeId } : {}),
      },
      quote: { ...quote, blockchain } as unknown as Record<string, unknown>,
      payment: paymentEcho(account.rail as AccountRail, account.identifier),
      bankAccountId: account.id,
      exchangeRateId: body.exchangeRateId ?? null,
      amountUsd,
    });
  });
}

/** The row in its first status, stamped `now`, with its created event and its first step. */
async function insertStarted(tx: Db, deps: TxDeps, now: Date, values: Omit<Parameters<typeof insertTransaction>[1], 'status' | 'createdAt' | 'updatedAt'>): Promise<TransactionRow> {
  const row = await insertTransaction(tx, { ...values, status: initialStatus(values.type), createdAt: now, updatedAt: now });
  await record(tx, deps, row, now);
  await scheduleStep(tx, deps, row);
  return row;
}

export async function createTransfer(db: Db, deps: TxDeps, partnerId: string, body: TransferRequest): Promise<TransactionRow> {
  const amount = parseAmount(body.amount, body.currency);
  if (!amount.ok) throw invalid([{ path: 'amount', message: amount.message, code: amountErrorCode[amount.error] }]);
  const blockchain = body.blockchain ?? deps.config.RAMP_DEFAULT_BLOCKCHAIN;
  requireChain(deps, blockchain, body.currency);
  const market = await readMarket(deps);
  return inTransaction(db, async (tx) => {
    const id = newId();
    // Between two customers, both rows are locked in id order, whoever sends: A→B and B→A at once never wait on each
    // other in a cycle (PostgreSQL would end one of them as a deadlock).
    const toId = isUuid(body.to) ? body.to.toLowerCase() : undefined;
    const toLockedFirst = toId !== undefined && toId < body.from.toLowerCase() ? await lockCustomer(tx, partnerId, toId) : undefined;
    const from = await approvedCustomer(tx, deps, partnerId, body.from, 'from');
    // Where the money goes: one of this partner's customers (by id, or by an address we issued it), another partner's
    // customer (an address we issued there: credited in that partner's ledger, never named to this one), or the outside world.
    let destination: { customerId: string; address?: string } | { address: string; creditPartnerId?: string; creditCustomerId?: string };
    if (isUuid(body.to)) {
      if (body.to.toLowerCase() === from.id) throw invalid([{ path: 'to', message: 'must be another customer or an address', code: 'INVALID_VALUE' }]);
      const to = toLockedFirst ?? (await lockCustomer(tx, partnerId, body.to.toLowerCase()));
      const wallet = to && (await walletsOf(tx, partnerId, [to.id])).find((w) => w.blockchain === blockchain);
      if (!to) throw unknownReference('to', 'customer');
      if (!wallet) throw invalid([{ path: 'to', message: `is not an approved customer of yours with a ${blockchain} wallet`, code: 'UNKNOWN_REFERENCE' }]);
      destination = { customerId: to.id };
    } else {
      if (!isValidAddress(blockchain, body.to)) throw invalid([{ path: 'to', message: `is not a valid ${blockchain} address (nor a customer id)`, code: 'INVALID_ADDRESS' }]);
      const owner = await walletOwner(tx, blockchain, body.to);
      if (owner?.partnerId === partnerId && owner.customerId === from.id) {
        throw invalid([{ path: 'to', message: "is the sender's own wallet address: send to another customer or an outside address", code: 'INVALID_ADDRESS' }]);
      }
      if (!owner) destination = { address: body.to };
      else if (owner.partnerId === partnerId) destination = { customerId: owner.customerId, address: body.to };
      else destination = { address: body.to, creditPartnerId: owner.partnerId, creditCustomerId: owner.customerId };
    }
    const value = amount.value.toFixed(6);
    const now = deps.clock.now();
    const amountUsd = toUsd(market.usd, body.currency, value);
    await reserveLimit(tx, deps, { partnerId, customerId: from.id, locked: from }, amountUsd, id);
    await holdFunds(tx, { partnerId, customerId: from.id, reference: id, clearing: 'transfer', blockchain, asset: body.currency, amount: value }, now);
    return insertStarted(tx, deps, now, {
      id,
      partnerId,
      customerId: from.id,
      type: 'TRANSFER',
      blockchain,
      request: { currency: body.currency, from: from.id, to: body.to, amount: value, blockchain },
      quote: { currency: body.currency, amount: value, ...destination },
      amountUsd,
    });
  });
}
