// The withdrawal form's rules: which chains and coins can be sent, the amount read in the reader's locale and held to the
// balance (decimal strings, never JS numbers), and the destination checked per chain.
import type { Customer } from '../../contract/customers';
import type { BffTransferRequest } from '../../contract/transactions';
import { STABLECOINS, type Stablecoin } from '../../contract/currencies';
import type { Blockchain } from '../../contract/blockchains';
import type { Locale } from '../../i18n';
import { sign, subtract } from '../../rules/decimal';
import { parseAmount, type AmountError } from '../quote/amount';
import { addressProblem, sameAddress, type AddressProblem } from './address';

type Wallet = Customer['wallets'][number];

export interface WithdrawDraft {
  blockchain: Blockchain;
  coin: Stablecoin;
  /** As typed, in the reader's locale. */
  amount: string;
  to: string;
}

export type AmountProblem = AmountError | 'empty' | 'balance';
export type ToProblem = AddressProblem | 'own';

export interface WithdrawProblems {
  amount?: AmountProblem;
  to?: ToProblem;
}

export type Checked = { ok: true; request: BffTransferRequest } | { ok: false; problems: WithdrawProblems };

/** What the wallet on a chain holds of a coin, as the API says it (`"0"` when it holds none). */
export function balanceOf(wallets: readonly Wallet[], blockchain: Blockchain, coin: Stablecoin): string {
  const wallet = wallets.find((w) => w.blockchain === blockchain);
  return wallet?.balances?.find((b) => b.stablecoin === coin)?.balance ?? '0';
}

/** The chain and coin a withdrawal opens with: the first that holds something, else the default wallet's first coin. */
export function firstDraft(wallets: readonly Wallet[]): WithdrawDraft | undefined {
  for (const w of wallets) {
    for (const coin of STABLECOINS) if (sign(balanceOf(wallets, w.blockchain, coin)) > 0) return { blockchain: w.blockchain, coin, amount: '', to: '' };
  }
  const wallet = wallets.find((w) => w.isDefault) ?? wallets[0];
  return wallet && { blockchain: wallet.blockchain, coin: 'USDC', amount: '', to: '' };
}

export function checkWithdraw(draft: WithdrawDraft, wallets: readonly Wallet[], locale: Locale): Checked {
  const problems: WithdrawProblems = {};
  const parsed = parseAmount(draft.amount, locale, draft.coin);
  if (!parsed.ok) problems.amount = parsed.error;
  else if (sign(subtract(parsed.value, balanceOf(wallets, draft.blockchain, draft.coin))) > 0) problems.amount = 'balance';
  const own = wallets.find((w) => w.blockchain === draft.blockchain)?.address;
  problems.to = addressProblem(draft.blockchain, draft.to) ?? (own && sameAddress(draft.blockchain, own, draft.to) ? 'own' : undefined);
  if (problems.amount || problems.to) return { ok: false, problems: Object.fromEntries(Object.entries(problems).filter(([, v]) => v)) as WithdrawProblems };
  const amount = (parsed as { ok: true; value: string }).value;
  return { ok: true, request: { currency: draft.coin, blockchain: draft.blockchain, to: draft.to.trim(), amount } };
}
