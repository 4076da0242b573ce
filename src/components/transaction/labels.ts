// Message keys for what the money components name at run time (statuses, purposes, step states), typed so `t()` checks them.
import { keyTable } from '../key-table';
import type { StepState, TransactionStatus, TransactionType } from './steps';
import type { Purpose } from './purposes';

/** The same status reads differently by direction: TRANSFERRING_FIAT is "payment received" on-ramp, "paying out" off-ramp. */
export const stepLabelKeys = {
  ON_RAMP: {
    AWAITING_FUNDS: 'tx.step.AWAITING_FUNDS',
    TRANSFERRING_FIAT: 'tx.step.ON_RAMP.TRANSFERRING_FIAT',
    TRADING: 'tx.step.TRADING',
    TRANSFERRING_STABLECOIN: 'tx.step.ON_RAMP.TRANSFERRING_STABLECOIN',
    SUCCESS: 'tx.step.SUCCESS',
    FAILED: 'tx.step.FAILED',
    REFUNDING: 'tx.step.REFUNDING',
    REFUNDED: 'tx.step.REFUNDED',
  },
  OFF_RAMP: {
    AWAITING_FUNDS: 'tx.step.AWAITING_FUNDS',
    TRANSFERRING_FIAT: 'tx.step.OFF_RAMP.TRANSFERRING_FIAT',
    TRADING: 'tx.step.TRADING',
    TRANSFERRING_STABLECOIN: 'tx.step.OFF_RAMP.TRANSFERRING_STABLECOIN',
    SUCCESS: 'tx.step.SUCCESS',
    FAILED: 'tx.step.FAILED',
    REFUNDING: 'tx.step.REFUNDING',
    REFUNDED: 'tx.step.REFUNDED',
  },
} as const satisfies Record<'ON_RAMP' | 'OFF_RAMP', Record<TransactionStatus, string>>;

export type StepLabelKey = (typeof stepLabelKeys)['ON_RAMP' | 'OFF_RAMP'][TransactionStatus];

export function stepLabelKey(type: TransactionType, status: TransactionStatus): StepLabelKey {
  return stepLabelKeys[type === 'OFF_RAMP' ? 'OFF_RAMP' : 'ON_RAMP'][status];
}

/** Upcoming steps say nothing extra: the list order already tells they come later. */
export const stepStateKeys = keyTable('tx.state.', ['done', 'current', 'failed']) satisfies Record<Exclude<StepState, 'upcoming'>, string>;

export const purposeKeys = keyTable('tx.purpose.', ['PERSONAL_ACCOUNT', 'INVESTMENT', 'REAL_ESTATE', 'TRADE_TRANSACTIONS', 'TAX', 'LOAN', 'BILLS', 'EXPENSES_REIMBURSEMENT', 'PROFESSIONAL_SERVICES']) satisfies Record<Purpose, string>;

export const limitNameKeys = keyTable('tx.limit.', ['single', 'daily', 'monthly']);

export const limitNameKey = (limit: string | undefined) => (limit === 'single' || limit === 'daily' || limit === 'monthly' ? limitNameKeys[limit] : undefined);
