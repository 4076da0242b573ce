// The SettlementProvider port — the rails money actually moves on: how a payer pays an on-ramp in, the chain transfers
// that deliver or collect stablecoin, and when the next step of a transaction is due. Beside RateSource (prices) and
// ReviewProvider (verification). The simulated rails are the sandbox implementation (server/sandbox/settlement-provider.ts);
// production needs a real one, and the service does not start without it.
import type { Blockchain } from '../wallets';
import type { TxStatus, TxType } from '../transactions';

/** What an on-ramp's payer is told to pay: a PIX BR Code, or bank-transfer instructions. Shown as `state.payment`. */
export type PayInInstructions = { rail: string; expiresAt: string } & Record<string, string>;

export interface ChainReceipt {
  transactionHash: string;
  blockExplorerUrl: string;
}

export interface SettlementProvider {
  /** Shown in logs and `/readyz`; `simulated` is the sandbox's. */
  readonly name: string;
  /** Instructions for paying `amount` of `currency` over `rail` into our account, quoting `reference`, until `expiresAt`. */
  payIn(p: { rail: string; currency: string; amount: string; reference: string; expiresAt: Date }): PayInInstructions;
  /**
   * The chains whose stablecoin this provider moves itself (`chainTransfer`); omitted: every chain. A chain configured
   * with RAMP_CHAIN_RPC_<CHAIN> settles on its node instead, whatever this says.
   */
  readonly chains?: readonly Blockchain[];
  /** The on-chain transfer of a transaction's stablecoin (`reference` is the transaction id). */
  chainTransfer(p: { blockchain: Blockchain; reference: string }): ChainReceipt;
  /** How long after reaching `status` the next step of a `type` transaction is due. */
  stepDelayMs(type: TxType, status: TxStatus): number;
  /** Sandbox only: pay an on-ramp by itself this long after it was created (0: never). */
  readonly autopayAfterMs: number;
}
