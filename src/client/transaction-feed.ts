// One transaction, live: the transaction-shaped `Feed` the money components follow.
import type { Transaction } from '../contract/transactions';
import type { BffClient } from './bff-client';
import { pollingFeed, type Feed, type PollOptions } from './feed';

export type TransactionFeed = Feed<Transaction>;

/**
 * One transaction, live. The components call only this, so when `/bff/events` lands it becomes an SSE subscription
 * filtered by `id` (falling back to polling), and nothing else changes.
 */
export function transactionFeed(client: Pick<BffClient, 'getTransaction'>, id: string, options: PollOptions = {}): TransactionFeed {
  return pollingFeed((signal) => client.getTransaction(id, { signal }), options);
}
