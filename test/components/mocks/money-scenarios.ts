// msw scenarios for money: a small stateful fake of the BFF's transaction, bank-account and sandbox-pay routes, walking the status paths of the spec.
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { BankAccount } from '../../../src/contract/bank-accounts';
import type { Customer } from '../../../src/contract/customers';
import type { Quote } from '../../../src/contract/exchange-rates';
import type { BffOffRampRequest, BffOnRampRequest, Transaction } from '../../../src/contract/transactions';
import type { BffCreateBankAccount } from '../../../src/client/bff-client';
import { problemResponse, type RequestLog } from './bff-scenarios';
import { brCode as buildBrCode } from '../../../server/domain/brcode';

type Status = Transaction['state']['status'];
type VerificationStatus = BankAccount['holder']['verification']['status'];

export const moneyIds = {
  customer: '01936f2a-7c1e-7aa8-9d4b-3f1c2e5a6b7d',
  lockedBuyQuote: '01936f2a-7c1e-7aa8-9d4b-00000000b001',
  lockedSellQuote: '01936f2a-7c1e-7aa8-9d4b-00000000e001',
} as const;

/** Numbered ids that sort like UUIDv7 (newest first = larger id). */
export const mockUuid = (prefix: string, n: number) => `01936f2a-${prefix.padStart(4, '0').slice(-4)}-7000-8000-${n.toString(16).padStart(12, '0')}`;

const fee = (currency: Quote['targetCurrency'], totalAmount: string) => ({ rate: '50', flatAmount: '0', totalAmount, currency });

/** A LOCKED buy quote: pay 550.00 BRL by PIX, receive 98.765432 USDC on POLYGON. */
export function mockBuyQuote(now = new Date(), overrides: Partial<Quote> = {}): Quote {
  return {
    id: moneyIds.lockedBuyQuote,
    type: 'LOCKED',
    customerId: moneyIds.customer,
    rail: 'PIX',
    blockchain: 'POLYGON',
    sourceCurrency: 'BRL',
    sourceAmount: '550.00',
    targetCurrency: 'USDC',
    baseTargetAmount: '99.261738',
    baseExchangeRate: '0.18047588',
    fees: { service: fee('USDC', '0.496306'), partner: fee('USDC', '0.000000') },
    finalTargetAmount: '98.765432',
    finalExchangeRate: '0.17957351',
    timeLock: '5m',
    expiresAt: new Date(now.getTime() + 300_000).toISOString(),
    createdAt: now.toISOString(),
    ...overrides,
  };
}

/** A LOCKED sell quote: send 100.000000 USDC, receive 548.37 BRL by PIX. */
export function mockSellQuote(now = new Date(), overrides: Partial<Quote> = {}): Quote {
  return {
    id: moneyIds.lockedSellQuote,
    type: 'LOCKED',
    customerId: moneyIds.customer,
    rail: 'PIX',
    blockchain: 'POLYGON',
    sourceCurrency: 'USDC',
    sourceAmount: '100.000000',
    targetCurrency: 'BRL',
    baseTargetAmount: '551.13',
    baseExchangeRate: '5.5113',
    fees: { service: fee('BRL', '2.76'), partner: fee('BRL', '0.00') },
    finalTargetAmount: '548.37',
    finalExchangeRate: '5.4837',
    timeLock: '5m',
    expiresAt: new Date(now.getTime() + 300_000).toISOString(),
    createdAt: now.toISOString(),
    ...overrides,
  };
}

export interface MockAccountSpec {
  n: number;
  rail?: BankAccount['rail'];
  relationship?: BankAccount['holder']['relationship'];
  status?: VerificationStatus;
  name?: string;
}

/** A saved bank account; `n` orders them (higher is newer) and names them. */
export function mockBankAccount(spec: MockAccountSpec, now = new Date()): BankAccount {
  const rail = spec.rail ?? 'PIX';
  const at = new Date(now.getTime() - (1_000_000 - spec.n) * 1000).toISOString();
  const identifier: Record<string, string> =
    rail === 'PIX'
      ? { keyType: 'CPF', keyValue: '52998224725' }
      : rail === 'SEPA'
        ? { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' }
        : { accountNumber: '123456789', bic: 'CHASUS33', bankName: 'JPMorgan Chase', bankCountry: 'USA' };
  return {
    id: mockUuid('acc0', spec.n),
    customerId: moneyIds.customer,
    name: spec.name ?? `Account ${spec.n}`,
    type: 'EXTERNAL',
    rail,
    currency: rail === 'PIX' ? 'BRL' : rail === 'SEPA' ? 'EUR' : 'USD',
    identifier,
    holder: {
      type: 'INDIVIDUAL',
      relationship: spec.relationship ?? 'SELF',
      name: 'Ana Souza',
      taxId: '52998224725',
      address: { line1: 'Rua Augusta 100', city: 'São Paulo', state: 'SP', postalCode: '01304-000', country: 'BRA' },
      verification: { status: spec.status ?? 'APPROVED', level: 'BASIC' },
    },
    createdAt: at,
    updatedAt: at,
  };
}

export const onRampPath: readonly Status[] = ['AWAITING_FUNDS', 'TRANSFERRING_FIAT', 'TRADING', 'TRANSFERRING_STABLECOIN', 'SUCCESS'];
export const offRampPath: readonly Status[] = ['TRANSFERRING_STABLECOIN', 'TRADING', 'TRANSFERRING_FIAT', 'SUCCESS'];
export const offRampRefundPath: readonly Status[] = ['TRANSFERRING_STABLECOIN', 'TRADING', 'REFUNDING', 'REFUNDED'];

export interface MoneyBackendOptions {
  /** URL pattern of the BFF; default any origin's `/bff`. */
  base?: string;
  log?: RequestLog;
  /** Delay before every answer. */
  delayMs?: number;
  /** Saved accounts, in any order (listed newest first). */
  accounts?: BankAccount[];
  /** List reads before a new account's holder turns APPROVED (the sandbox's delay). Default 1. */
  approveAfterReads?: number;
  /** What an unpaid on-ramp does: wait for the sandbox pay (default), pay itself on the first read, or expire after `expireAfterReads`. */
  onRamp?: 'awaitPayment' | 'autoPay' | 'expire';
  expireAfterReads?: number;
  /** Payment window of an on-ramp, in ms. Default 15 minutes. */
  paymentWindowMs?: number;
  /** `refund`: the off-ramp fails after TRADING and is refunded. */
  offRamp?: 'success' | 'refund';
  /** The quote a locked on-ramp / off-ramp uses. */
  buyQuote?: Quote;
  sellQuote?: Quote;
  /** The session's customer, answered on `GET customer` (the add-account form's "Me"); without one that route is not handled here. */
  customer?: Customer;
}

/** The customer behind the money session: an individual by default, with the address sent in additional information. */
export function mockMoneyCustomer(over: Partial<Customer> = {}): Customer {
  const at = new Date().toISOString();
  return {
    id: moneyIds.customer,
    type: 'INDIVIDUAL',
    name: 'Ana Souza',
    taxId: '52998224725',
    birthDate: '1990-05-17',
    country: 'BRA',
    metadata: {},
    wallets: [],
    verification: { status: 'APPROVED', level: 'STANDARD', link: `https://ramp.example/verify/${moneyIds.customer}` },
    requirements: [],
    additionalInformation: {
      type: 'INDIVIDUAL',
      address: { country: 'BRA', line1: 'Av. Paulista, 1000', city: 'São Paulo', state: 'SP', postalCode: '01310-100' },
    },
    createdAt: at,
    updatedAt: at,
    ...over,
  };
}

interface Followed {
  tx: Transaction;
  path: readonly Status[];
  step: number;
  paid: boolean;
  reads: number;
}

/**
 * The fake: holds accounts and transactions, and moves each transaction one status along its path per read of
 * `GET transactions/{id}` (an on-ramp only once paid), so a test sees every step once and fast.
 */
export class MockMoneyBackend {
  readonly accounts: BankAccount[];
  readonly transactions = new Map<string, Followed>();
  /** While set, a transaction that reached this status stays there on every read (a test looks at an in-between state as long as it likes). */
  holdAt: Status | undefined;
  private accountReads = new Map<string, number>();
  private seq = 0;

  constructor(private readonly o: MoneyBackendOptions = {}) {
    this.accounts = [...(o.accounts ?? [])].sort((a, b) => (a.id < b.id ? 1 : -1));
  }

  private url(path: string): string {
    return `${this.o.base ?? '*/bff'}/${path}`;
  }

  private async arrive(request: Request): Promise<void> {
    await this.o.log?.record(request);
    if (this.o.delayMs) await delay(this.o.delayMs);
  }

  /** Cursors as the server gives them: uuids meaning "after this id"; the max uuid means from the top. */
  listPage(size: number, cursor: string | null): { data: BankAccount[]; pagination: { size: number; hasNextPage: boolean; hasPreviousPage: boolean; nextCursor: string | null; previousCursor: string | null } } {
    const all = this.accounts;
    const top = 'ffffffff-ffff-ffff-ffff-ffffffffffff';
    const start = cursor && cursor !== top ? all.findIndex((a) => a.id === cursor) + 1 : 0;
    const data = all.slice(start, start + size);
    const hasNextPage = start + size < all.length;
    const hasPreviousPage = start > 0;
    return {
      data,
      pagination: {
        size,
        hasNextPage,
        hasPreviousPage,
        nextCursor: hasNextPage && data.length ? data.at(-1)!.id : null,
        previousCursor: hasPreviousPage ? (start - size > 0 ? all[start - size - 1]!.id : top) : null,
      },
    };
  }

  /** A list read ages every account under verification by one read; enough reads approve it. */
  private ageVerifications(): void {
    const after = this.o.approveAfterReads ?? 1;
    this.accounts.forEach((account, i) => {
      if (account.holder.verification.status !== 'UNDER_VERIFICATION') return;
      const reads = (this.accountReads.get(account.id) ?? 0) + 1;
      this.accountReads.set(account.id, reads);
      if (reads > after) {
        this.accounts[i] = { ...account, holder: { ...account.holder, verification: { status: 'APPROVED', level: 'BASIC' } }, updatedAt: new Date().toISOString() };
      }
    });
  }

  private advance(f: Followed): Transaction {
    f.reads++;
    const status = f.tx.state.status;
    if (status === 'SUCCESS' || status === 'FAILED' || status === 'REFUNDED' || status === this.holdAt) return f.tx;
    if (f.tx.type === 'ON_RAMP' && status === 'AWAITING_FUNDS') {
      if (this.o.onRamp === 'autoPay') f.paid = true;
      if (!f.paid) {
        if (this.o.onRamp === 'expire' && f.reads >= (this.o.expireAfterReads ?? 1)) {
          return this.move(f, 'FAILED', { error: { code: 'EXPIRED', message: 'The payment window closed before funds arrived.' } });
        }
        return f.tx;
      }
    }
    f.step = Math.min(f.step + 1, f.path.length - 1);
    const next = f.path[f.step]!;
    if (next === 'SUCCESS') {
      const targetAmount = f.tx.quote?.finalTargetAmount ?? '0';
      return this.move(f, next, {
        receipt: {
          transactionHash: `0x${'ab'.repeat(32)}`,
          blockExplorerUrl: `https://amoy.polygonscan.com/tx/0x${'ab'.repeat(32)}`,
          targetAmount,
        },
      });
    }
    if (next === 'REFUNDING' || next === 'REFUNDED') {
      return this.move(f, next, { error: { code: 'PAYOUT_REJECTED', message: 'The receiving bank rejected the transfer' } });
    }
    return this.move(f, next, {});
  }

  private move(f: Followed, status: Status, extra: Partial<Transaction['state']>): Transaction {
    const { estimatedSettlementAt, payment } = f.tx.state;
    f.tx = {
      ...f.tx,
      state: { status, ...(payment ? { payment } : {}), ...(estimatedSettlementAt ? { estimatedSettlementAt } : {}), ...extra },
      updatedAt: new Date().toISOString(),
    };
    return f.tx;
  }

  onRampTransaction(body: BffOnRampRequest, now = new Date()): Transaction {
    const id = mockUuid('tx01', ++this.seq);
    const quote: Quote = body.exchangeRateId
      ? (this.o.buyQuote ?? mockBuyQuote(now))
      : mockBuyQuote(now, {
          id: undefined,
          type: 'FLOATING',
          sourceAmount: body.sourceAmount ?? '0',
          targetCurrency: body.targetCurrency ?? 'USDC',
          ...(body.blockchain ? { blockchain: body.blockchain } : {}),
        });
    // The server's own BR Code builder (server/domain/brcode.ts): the mocks hand out what a real transaction would.
    const [whole = '0', cents = ''] = quote.sourceAmount.split('.');
    const brCode = buildBrCode({
      pixKey: '123e4567-e12b-12d1-a456-426655440000',
      amount: `${whole}.${cents.padEnd(2, '0').slice(0, 2)}`,
      merchantName: 'Ramp Sandbox',
      merchantCity: 'SAO PAULO',
      txid: `RAMP${this.seq.toString().padStart(8, '0')}`,
    });
    const at = now.toISOString();
    return {
      id,
      customerId: moneyIds.customer,
      type: 'ON_RAMP',
      request: { ...body },
      quote,
      blockchain: quote.blockchain,
      state: {
        status: 'AWAITING_FUNDS',
        // SEPA and SWIFT are paid by a bank transfer to the instructions the server's settlement provider gives.
        payment:
          quote.rail === 'PIX'
            ? { rail: 'PIX', brCode, expiresAt: new Date(now.getTime() + (this.o.paymentWindowMs ?? 900_000)).toISOString() }
            : {
                rail: quote.rail,
                beneficiary: 'Ramp Pagamentos Ltda',
                iban: 'DE89370400440532013000',
                bic: 'COBADEFFXXX',
                reference: `RAMP${this.seq.toString().padStart(8, '0')}`,
                amount: quote.sourceAmount,
                currency: quote.sourceCurrency,
                expiresAt: new Date(now.getTime() + (this.o.paymentWindowMs ?? 900_000)).toISOString(),
              },
      },
      createdAt: at,
      updatedAt: at,
    };
  }

  offRampTransaction(body: BffOffRampRequest, account: BankAccount, now = new Date()): Transaction {
    const id = mockUuid('tx02', ++this.seq);
    const quote: Quote = body.exchangeRateId
      ? (this.o.sellQuote ?? mockSellQuote(now))
      : mockSellQuote(now, { id: undefined, type: 'FLOATING', sourceCurrency: body.sourceCurrency ?? 'USDC', sourceAmount: body.amount ?? '0', targetCurrency: account.currency });
    const at = now.toISOString();
    const settlement = account.rail === 'PIX' ? undefined : new Date(now.getTime() + (account.rail === 'SEPA' ? 86_400_000 : 3 * 86_400_000)).toISOString();
    return {
      id,
      customerId: moneyIds.customer,
      type: 'OFF_RAMP',
      request: { ...body },
      quote,
      blockchain: quote.blockchain,
      state: {
        status: 'TRANSFERRING_STABLECOIN',
        payment: { rail: account.rail, ...account.identifier },
        ...(settlement ? { estimatedSettlementAt: settlement } : {}),
      },
      createdAt: at,
      updatedAt: at,
    };
  }

  handlers(): HttpHandler[] {
    const customer = this.o.customer;
    return [
      ...(customer
        ? [
            http.get(this.url('customer'), async ({ request }) => {
              await this.arrive(request);
              return HttpResponse.json(customer);
            }),
          ]
        : []),
      http.get(this.url('bank-accounts'), async ({ request }) => {
        await this.arrive(request);
        this.ageVerifications();
        const params = new URL(request.url).searchParams;
        const size = Math.min(100, Math.max(1, Number(params.get('size') ?? 25) || 25));
        return HttpResponse.json(this.listPage(size, params.get('cursor')));
      }),
      http.post(this.url('bank-accounts'), async ({ request }) => {
        await this.arrive(request);
        const body = (await request.json()) as BffCreateBankAccount;
        const at = new Date().toISOString();
        const account: BankAccount = {
          id: mockUuid('acc1', ++this.seq),
          customerId: moneyIds.customer,
          name: body.name,
          type: 'EXTERNAL',
          rail: body.rail,
          currency: body.currency,
          identifier: { ...(body.identifier as Record<string, string>) },
          holder: { ...body.holder, verification: { status: 'UNDER_VERIFICATION', level: 'BASIC' } },
          createdAt: at,
          updatedAt: at,
        };
        this.accounts.unshift(account);
        return HttpResponse.json(account, { status: 201 });
      }),
      http.post(this.url('transactions/on-ramp'), async ({ request }) => {
        await this.arrive(request);
        const tx = this.onRampTransaction((await request.json()) as BffOnRampRequest);
        this.transactions.set(tx.id, { tx, path: onRampPath, step: 0, paid: false, reads: 0 });
        return HttpResponse.json(tx, { status: 201 });
      }),
      http.post(this.url('transactions/off-ramp'), async ({ request }) => {
        await this.arrive(request);
        const body = (await request.json()) as BffOffRampRequest;
        const account = this.accounts.find((a) => a.id === body.bankAccountId);
        if (!account) return problemResponse(400, 'VALIDATION_FAILED', 'bankAccountId: no such bank account', { errors: [{ path: 'bankAccountId', message: 'no such bank account' }] });
        const tx = this.offRampTransaction(body, account);
        this.transactions.set(tx.id, { tx, path: this.o.offRamp === 'refund' ? offRampRefundPath : offRampPath, step: 0, paid: true, reads: 0 });
        return HttpResponse.json(tx, { status: 201 });
      }),
      http.get(this.url('transactions'), async ({ request }) => {
        await this.arrive(request);
        const data = [...this.transactions.values()].map((f) => f.tx).sort((a, b) => (a.id < b.id ? 1 : -1));
        return HttpResponse.json({ data, pagination: { size: data.length, hasNextPage: false, hasPreviousPage: false, nextCursor: null, previousCursor: null } });
      }),
      http.get(this.url('transactions/:id'), async ({ request, params }) => {
        await this.arrive(request);
        const followed = this.transactions.get(String(params.id));
        if (!followed) return problemResponse(404, 'NOT_FOUND', 'Transaction not found');
        return HttpResponse.json(this.advance(followed));
      }),
      http.post(this.url('sandbox/transactions/:id/pay'), async ({ request, params }) => {
        await this.arrive(request);
        const followed = this.transactions.get(String(params.id));
        if (!followed) return problemResponse(404, 'NOT_FOUND', 'Transaction not found');
        if (followed.tx.state.status !== 'AWAITING_FUNDS') return problemResponse(409, 'INVALID_STATE', `The transaction is ${followed.tx.state.status}.`);
        followed.paid = true;
        return HttpResponse.json(followed.tx);
      }),
    ];
  }
}

/** A transaction POST answered with a problem, e.g. 422 TRANSACTION_LIMIT_EXCEEDED with `{limit, max, remaining}`. */
export function transactionProblem(
  kind: 'on-ramp' | 'off-ramp',
  status: number,
  code: string,
  detail: string,
  extra: Record<string, unknown> = {},
  o: { base?: string; log?: RequestLog } = {},
): HttpHandler {
  return http.post(`${o.base ?? '*/bff'}/transactions/${kind}`, async ({ request }) => {
    await o.log?.record(request);
    return problemResponse(status, code, detail, extra);
  });
}

/** The creation of a bank account answered with a 400 naming fields, as the server words them. */
export function bankAccountInvalid(errors: { path: string; message: string }[], o: { base?: string; log?: RequestLog } = {}): HttpHandler {
  return http.post(`${o.base ?? '*/bff'}/bank-accounts`, async ({ request }) => {
    await o.log?.record(request);
    return problemResponse(400, 'VALIDATION_FAILED', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
  });
}

/** The scenarios by name, each a list of handlers for `worker.use(...)`; stateful ones hand back their backend too. */
export const moneyScenarios = {
  /** Pays nothing until the sandbox pay button (or `autoPay`), then one status per read, up to SUCCESS. */
  onRamp: (o: MoneyBackendOptions = {}) => new MockMoneyBackend(o).handlers(),
  onRampExpires: (o: MoneyBackendOptions = {}) => new MockMoneyBackend({ onRamp: 'expire', ...o }).handlers(),
  limitExceeded: (o: { base?: string; log?: RequestLog } = {}) => [
    transactionProblem('on-ramp', 422, 'TRANSACTION_LIMIT_EXCEEDED', 'This transaction (1200.00 USD-equivalent) exceeds the daily limit of 2000.00 USD; 500.00 USD remains.', { limit: 'daily', max: '2000.00', remaining: '500.00', amountUsd: '1200.00' }, o),
  ],
  rateExpired: (o: { base?: string; log?: RequestLog } = {}) => [transactionProblem('on-ramp', 409, 'RATE_EXPIRED', 'This locked exchange rate expired; lock a new one.', {}, o)],
  offRamp: (o: MoneyBackendOptions = {}) => new MockMoneyBackend(o).handlers(),
  offRampRefunded: (o: MoneyBackendOptions = {}) => new MockMoneyBackend({ offRamp: 'refund', ...o }).handlers(),
  insufficientBalance: (o: { base?: string; log?: RequestLog } = {}) => [
    transactionProblem('off-ramp', 422, 'INSUFFICIENT_BALANCE', 'Not enough USDC on POLYGON for this movement.', { asset: 'USDC', blockchain: 'POLYGON' }, o),
  ],
} satisfies Record<string, (...args: never[]) => HttpHandler[]>;
