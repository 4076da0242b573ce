// Start-up: open the store, settle the partner this instance serves and its key, the session secret; everything main.ts and tests share.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AdjustableClock } from './clock';
import type { Config } from './config';
import { generateApiKey } from './domain/api-keys';
import { SimulatedMarket } from './domain/rates/simulated-market';
import type { AppDeps } from './app';
import type { Logger } from './logger';
import { manualReviewProvider, sandboxReviewProvider } from './sandbox/review-provider';
import { openStore, type Store } from './store/db';
import { type FileStore, LocalFileStore } from './store/file-store';
import { ensurePartnerForKey } from './store/queries/partners';
import { getOrInitSetting } from './store/queries/settings';
import { Tokens } from './tokens';

/** In sandbox with no RAMP_API_KEY, a key is generated once and kept in the data dir; `generated` says it is new. */
function sandboxKey(dataDir: string): { key: string; generated: boolean } {
  const file = join(dataDir, 'api-key');
  if (existsSync(file)) return { key: readFileSync(file, 'utf8').trim(), generated: false };
  mkdirSync(dataDir, { recursive: true });
  const key = generateApiKey('sandbox');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return { key, generated: true };
}

export async function bootstrap(config: Config, logger: Logger, opts: { store?: Store; files?: FileStore } = {}): Promise<AppDeps> {
  const store = opts.store ?? (await openStore({ databaseUrl: config.DATABASE_URL, dataDir: config.RAMP_DATA_DIR }));
  const { key: apiKey, generated } = config.RAMP_API_KEY
    ? { key: config.RAMP_API_KEY, generated: false }
    : sandboxKey(config.RAMP_DATA_DIR);
  const { partnerId } = await ensurePartnerForKey(store.db, apiKey, 'Default partner');
  if (generated) {
    // Printed once, on the start that created it; it stays in the data dir for the next starts.
    process.stdout.write(`\nRamp sandbox API key (shown once, kept in ${join(config.RAMP_DATA_DIR, 'api-key')}):\n  ${apiKey}\n\n`);
  }
  const secret = config.RAMP_SESSION_SECRET ?? (await getOrInitSetting(store.db, 'session_secret', () => randomBytes(32).toString('base64url')));
  // A generated seed is shared through the database, so every process (and every restart) derives the same addresses.
  const walletSeed = config.RAMP_WALLET_SEED ?? (await getOrInitSetting(store.db, 'wallet_seed', () => randomBytes(32).toString('hex')));
  return {
    config,
    rates: new SimulatedMarket({ spreadBps: config.spreadBps }),
    walletSeed,
    store,
    clock: new AdjustableClock(),
    logger,
    tokens: new Tokens(secret),
    files: opts.files ?? new LocalFileStore(join(config.RAMP_DATA_DIR, 'files')),
    reviews: config.sandbox ? sandboxReviewProvider : manualReviewProvider,
    apiKey,
    partnerId,
  };
}
