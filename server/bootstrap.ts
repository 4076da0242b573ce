// Start-up: open the store, settle the partner this instance serves and its key, the session secret; everything main.ts and tests share.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PartnerClock } from './clock';
import { type Config, ConfigError } from './config';
import type { SettlementProvider } from './domain/settlement/settlement-provider';
import { generateApiKey } from './domain/api-keys';
import { checkProductionChains, checkTokens, openChains } from './flows/chain/chains';
import { evmChainClient } from './providers/chain/evm';
import type { PixPsp } from './domain/pix/pix-psp';
import { pixPsp } from './providers/pix';
import { SimulatedMarket } from './domain/rates/simulated-market';
import type { AppDeps } from './app';
import type { Logger } from './logger';
import { manualReviewProvider, sandboxReviewProvider } from './sandbox/review-provider';
import { simulatedSettlement } from './sandbox/settlement-provider';
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

/**
 * The rails: the simulated ones in sandbox; in production a real provider (given by the host embedding the service, or named
 * by RAMP_SETTLEMENT_PROVIDER once one is built in) or the service does not start: no production request may ever be
 * answered with the sandbox's PIX key, IBAN or made-up transaction hashes.
 */
export function settlementProvider(config: Config, given?: SettlementProvider): SettlementProvider {
  if (given) return given;
  if (config.sandbox) return simulatedSettlement(config);
  // PIX moves through a PSP (RAMP_PIX_PSP_URL) or not at all: the simulated PIX never serves production.
  const pix = config.pix ? '' : '\nRAMP_PIX_PSP_URL: required when RAMP_ENV=production: PIX pay-ins and payouts go through a PSP (the simulated PIX serves sandbox only)';
  if (!config.RAMP_SETTLEMENT_PROVIDER) {
    throw new ConfigError(`RAMP_SETTLEMENT_PROVIDER: required when RAMP_ENV=production: money cannot move without a real settlement provider (the simulated rails serve sandbox only)${pix}`);
  }
  throw new ConfigError('RAMP_SETTLEMENT_PROVIDER: the simulated rails serve sandbox only; configure a real settlement provider for RAMP_ENV=production');
}

export async function bootstrap(config: Config, logger: Logger, opts: { store?: Store; files?: FileStore; settlement?: SettlementProvider; pix?: PixPsp } = {}): Promise<AppDeps> {
  // Before anything is opened: a production instance without real rails stops here, naming what is missing.
  const settlement = settlementProvider(config, opts.settlement);
  checkProductionChains(config, settlement);
  const store =
    opts.store ??
    (await openStore({
      databaseUrl: config.DATABASE_URL,
      dataDir: config.RAMP_DATA_DIR,
      schema: config.DATABASE_SCHEMA,
      poolSize: config.RAMP_DB_POOL_SIZE,
      connectTimeoutMs: config.RAMP_DB_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: config.RAMP_DB_STATEMENT_TIMEOUT_MS,
      preparedStatements: config.RAMP_DB_PREPARED_STATEMENTS,
      onConnectionError: (err) => logger.warn({ code: (err as { code?: string }).code, message: err.message }, 'database connection lost; the pool reconnects'),
    }));
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
  // The treasuries derive from the same seed; each configured token's decimals are read from its contract now.
  const chains = openChains(config, walletSeed, (s) => evmChainClient({ rpcUrl: s.rpcUrl, timeoutMs: config.RAMP_CHAIN_RPC_TIMEOUT_MS, retryCount: 0 }));
  await checkTokens(chains, logger).catch(async (err) => {
    if (!opts.store) await store.close();
    throw err;
  });
  // PIX through the PSP when configured: pay-ins are its charges and payouts its envios, in sandbox as in production.
  const pix = opts.pix ?? (config.pix ? pixPsp(config.pix) : undefined);
  return {
    config,
    rates: new SimulatedMarket({ spreadBps: config.spreadBps }),
    walletSeed,
    store,
    clock: new PartnerClock(),
    logger,
    tokens: new Tokens(secret, { verificationLinkTtlSeconds: Math.round(config.RAMP_VERIFICATION_LINK_TTL_HOURS * 3600) }),
    files: opts.files ?? new LocalFileStore(join(config.RAMP_DATA_DIR, 'files')),
    reviews: config.sandbox ? sandboxReviewProvider : manualReviewProvider,
    settlement,
    ...(pix ? { pix } : {}),
    chains,
    apiKey,
    partnerId,
  };
}
