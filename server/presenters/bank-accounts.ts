// Presentation: a bank-account row as the API (and its events) show it, the holder's review status inside.
import type { BankAccount } from '../../src/contract/bank-accounts';
import type { BankAccountRow } from '../store/queries/bank-accounts';

export function presentBankAccount(r: BankAccountRow): BankAccount {
  return {
    id: r.id,
    customerId: r.customerId,
    name: r.name,
    type: 'EXTERNAL' as const,
    rail: r.rail,
    currency: r.currency,
    identifier: r.identifier,
    holder: { ...(r.holder as unknown as Omit<BankAccount['holder'], 'verification'>), verification: { status: r.holderStatus, level: 'BASIC' as const } },
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}
