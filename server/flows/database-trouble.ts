// What a failed query means for the caller: the pool is busy (retry in a second), the database is away (retry in a few),
// or neither (a bug, answered as INTERNAL). The routes' error handler answers by it without knowing the driver's errors.
import { isConnectionError, isPoolBusy } from '../store/db';

export function databaseTrouble(err: unknown): 'busy' | 'unavailable' | undefined {
  if (isPoolBusy(err)) return 'busy';
  if (isConnectionError(err)) return 'unavailable';
  return undefined;
}
