// One transaction, live: the transaction-shaped `Feed` the money components follow.
import type { Transaction } from '../contract/transactions';
import type { BffClient } from './bff-client';
import { liveFeed, type OpenEvents } from './event-stream';
import { pollingFeed, type Feed, type PollOptions } from './feed';

export type TransactionFeed = Feed<Transaction>;

/**
 * One transaction, live: its events on `/bff/events` when `open` is given (see `eventsOpener`), polling while the stream is
 * down (or when it cannot).
 */
export function transactionFeed(
  client: Pick<BffClient, 'getTransaction'>,
  id: string,
  options: PollOptions & { retryMs?: number; open?: OpenEvents } = {},
): TransactionFeed {
  const load = (signal: AbortSignal) => client.getTransaction(id, { signal });
  const poll = pollingFeed(load, options);
  if (!options.open) return poll;
  return liveFeed<Transaction>({
    open: options.open,
    load,
    fallback: poll,
    retryMs: options.retryMs,
    pick: (frame) => {
      if (!/^(onramp|offramp|transfer)\./.test(frame.event)) return undefined;
      try {
        const data = (JSON.parse(frame.data) as { data?: Transaction }).data;
        return data?.id === id ? data : undefined;
      } catch {
        return undefined;
      }
    },
  });
}
