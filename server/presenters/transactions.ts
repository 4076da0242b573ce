// Presentation: a transaction row as the API (and its events) show it. A transfer's destination details stay inside.
import type { Quote } from '../../src/contract/exchange-rates';
import type { Transaction } from '../../src/contract/transactions';
import type { TransactionRow } from '../store/queries/transactions';

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
