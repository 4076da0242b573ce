// The life of a transaction as steps the user can follow: the path each type takes, where a status sits on it, and when it is over.
import type { Transaction } from '../../contract/transactions';

export type TransactionType = Transaction['type'];
export type TransactionStatus = Transaction['state']['status'];

/** On-ramp: the payer pays by PIX, the service receives the fiat, converts it, sends the stablecoin. */
export const onRampPath = ['AWAITING_FUNDS', 'TRANSFERRING_FIAT', 'TRADING', 'TRANSFERRING_STABLECOIN', 'SUCCESS'] as const;
/** Off-ramp: the stablecoin leaves the wallet at once (the first status), is converted, and the fiat is paid out. */
export const offRampPath = ['TRANSFERRING_STABLECOIN', 'TRADING', 'TRANSFERRING_FIAT', 'SUCCESS'] as const;

const terminal: ReadonlySet<TransactionStatus> = new Set(['SUCCESS', 'FAILED', 'REFUNDED']);

/** Nothing more will happen: stop following. */
export const isTerminal = (status: TransactionStatus): boolean => terminal.has(status);

export type StepState = 'done' | 'current' | 'upcoming' | 'failed';

export interface Step {
  status: TransactionStatus;
  state: StepState;
}

export interface Progress {
  steps: Step[];
  /** Index of the step the transaction is at (the last one once it is over). */
  current: number;
}

const pathOf = (type: TransactionType): readonly TransactionStatus[] => (type === 'ON_RAMP' ? onRampPath : type === 'OFF_RAMP' ? offRampPath : ['TRANSFERRING_STABLECOIN', 'SUCCESS']);

/**
 * Where `status` sits on the path of `type`. `reached` is the last status seen before a failure (a FAILED or
 * REFUNDING answer does not say at which step it went wrong): that step shows as failed, and a refund branch
 * replaces the steps after it. Unknown to the path (a status this version does not know): the first step is current.
 */
export function progressOf(type: TransactionType, status: TransactionStatus, reached?: TransactionStatus): Progress {
  const path = pathOf(type);
  const at = path.indexOf(status);
  if (at !== -1) {
    const steps = path.map((s, i): Step => ({ status: s, state: i < at ? 'done' : i === at ? (s === 'SUCCESS' ? 'done' : 'current') : 'upcoming' }));
    return { steps, current: at };
  }
  const failedAt = Math.max(0, reached ? path.indexOf(reached) : 0);
  const before = path.slice(0, failedAt).map((s): Step => ({ status: s, state: 'done' }));
  const failedStep: Step = { status: path[failedAt] ?? path[0]!, state: 'failed' };
  if (status === 'REFUNDING' || status === 'REFUNDED') {
    const refund: Step[] = [
      { status: 'REFUNDING', state: status === 'REFUNDING' ? 'current' : 'done' },
      { status: 'REFUNDED', state: status === 'REFUNDED' ? 'done' : 'upcoming' },
    ];
    const steps = [...before, failedStep, ...refund];
    return { steps, current: before.length + (status === 'REFUNDING' ? 1 : 2) };
  }
  if (status === 'FAILED') {
    const after = path.slice(failedAt + 1).map((s): Step => ({ status: s, state: 'upcoming' }));
    return { steps: [...before, failedStep, ...after], current: failedAt };
  }
  return { steps: path.map((s, i): Step => ({ status: s, state: i === 0 ? 'current' : 'upcoming' })), current: 0 };
}

/** The furthest status on the path of `type` among `previous` and `next`: what `reached` means above. */
export function furthest(type: TransactionType, previous: TransactionStatus | undefined, next: TransactionStatus): TransactionStatus | undefined {
  const path = pathOf(type);
  const a = previous ? path.indexOf(previous) : -1;
  const b = path.indexOf(next);
  if (b === -1) return previous;
  return b >= a ? next : previous;
}
