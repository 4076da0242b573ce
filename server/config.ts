// Process configuration: read from the environment once, validated, with one clear line per bad value.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { seedWeakness, weakness } from './secret-strength';
import { BLOCKCHAINS } from '../src/contract/blockchains';
import { defaultFeeSchedule, type FeeSchedule, FeeScheduleError, parseFeeSchedule } from './domain/fee-schedule';
import { parseSpreadBps } from './domain/rates/rate-source';
import { PRODUCTION_SCHEDULE_S, parseSchedule, SANDBOX_SCHEDULE_S } from './domain/webhooks';
import type { Address } from './domain/chain/chain-client';
import { type ChainSettings, DEFAULT_CONFIRMATIONS, EVM_CHAINS } from './domain/chain/settings';
import { STABLECOINS } from './domain/money';
import { DEFAULT_LIMIT_CEILINGS } from './domain/limits';
import { isValidAddress, toChecksumAddress } from './domain/wallets';

const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));
const usdAmount = z.string().regex(/^\d{1,15}(\.\d{1,2})?$/, 'must be a USD amount such as "100000.00"');
const ms = (fallback: number) => z.coerce.number().int().min(0).max(86_400_000).default(fallback);
/** A retention: milliseconds, up to ten years. */
const retention = (fallback: number) => z.coerce.number().int().min(1).max(10 * 365 * 86_400_000).default(fallback);
/** A rate limit: `<points>/<seconds>`, e.g. `100/1` (100 requests a second) or `20/60`. */
const limit = (fallback: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,8}\/[1-9]\d{0,5}$/, 'must be <requests>/<seconds>, e.g. 100/1 or 20/60')
    .default(fallback)
    .transform((v) => {
      const [points, seconds] = v.split('/').map(Number) as [number, number];
      return { points, seconds };
    });

/** An ERC-20 contract: 0x and 40 hex digits, EIP-55 checksummed when mixed-case; kept checksummed. */
const tokenAddress = z
  .string()
  .refine((v) => isValidAddress('ETHEREUM', v), 'must be a 0x address of 40 hex digits (EIP-55 checksum when mixed-case), not the zero address')
  .transform((v) => toChecksumAddress(v) as Address)
  .optional();
const confirmations = z.coerce.number().int().min(1).max(10_000).optional();

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8787),
  /** Unset: loopback (127.0.0.1) in sandbox, every interface (0.0.0.0) in production. */
  HOST: z.string().min(1).optional(),
  RAMP_ENV: z.enum(['sandbox', 'production']).default('sandbox'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
    .optional(),
  RAMP_DATA_DIR: z.string().min(1).default('./.ramp-data'),
  RAMP_API_KEY: z
    .string()
    .regex(/^sk_(sandbox|live)_[A-Za-z0-9_-]{16,}$/, 'must look like sk_sandbox_… or sk_live_… (at least 16 characters after the prefix)')
    .optional(),
  RAMP_PUBLIC_URL: url.optional(),
  RAMP_UPSTREAM_URL: url.optional(),
  RAMP_SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  RAMP_WALLET_SEED: z
    .string()
    .regex(/^(?:[0-9a-fA-F]{2}){16,64}$/, 'must be 16 to 64 bytes of hex')
    .optional(),
  RAMP_FEE_SCHEDULE: z.string().optional(),
  RAMP_RATE_SPREAD_BPS: z.string().default('20'),
  RAMP_DEFAULT_BLOCKCHAIN: z.enum(BLOCKCHAINS).default('POLYGON'),
  RAMP_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RAMP_SANDBOX_REVIEW_MS: ms(1500),
  RAMP_SANDBOX_BANK_ACCOUNT_MS: ms(1000),
  RAMP_SANDBOX_STEP_MS: ms(800),
  RAMP_SANDBOX_AUTOPAY_MS: ms(0),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier')
    .optional(),
  RAMP_DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(20),
  RAMP_DB_CONNECT_TIMEOUT_MS: ms(3000),
  RAMP_DB_STATEMENT_TIMEOUT_MS: ms(30_000),
  /** Named prepared statements on PostgreSQL; `false` behind a pooler that cannot keep them (PgBouncer in transaction mode before 1.21). */
  RAMP_DB_PREPARED_STATEMENTS: z.enum(['true', 'false'], { error: 'must be true or false' }).default('true').transform((v) => v === 'true'),
  RAMP_SHUTDOWN_GRACE_MS: ms(20_000),
  /** Jobs one process runs at once on PostgreSQL, each holding a pooled connection while it runs (PGlite runs one at a time). */
  RAMP_JOB_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  RAMP_JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(8),
  RAMP_JOB_RETENTION_MS: ms(7 * 86_400_000),
  RAMP_CLEANUP_INTERVAL_MS: ms(60_000),
  /** Events are kept this long (and while a webhook delivery of theirs is pending); at least a delivery's whole schedule. */
  RAMP_EVENT_RETENTION_MS: retention(90 * 86_400_000),
  /** The webhook deliveries log (attempts) is kept this long. */
  RAMP_WEBHOOK_ATTEMPT_RETENTION_MS: retention(30 * 86_400_000),
  /** Where rate-limit counters live; unset: `postgres` on PostgreSQL (shared by every process), `memory` on the embedded database. */
  RAMP_RATE_LIMIT_STORE: z.enum(['memory', 'postgres', 'off']).optional(),
  RAMP_RATE_LIMIT_API_KEY: limit('100/1'),
  RAMP_RATE_LIMIT_SESSION: limit('120/60'),
  RAMP_RATE_LIMIT_LINK: limit('60/60'),
  RAMP_RATE_LIMIT_AUTH_FAILURES: limit('20/60'),
  /** Anonymous onboarding sessions (RAMP_PUBLIC_ONBOARDING) per client address and origin. */
  RAMP_RATE_LIMIT_PUBLIC_SESSION: limit('10/60'),
  RAMP_RATE_LIMIT_DEMO_SESSION: limit('10/60'),
  /** Tax ids already taken that one widget session may meet: more is someone testing ids, not a person onboarding. */
  RAMP_RATE_LIMIT_CONFLICTS: limit('5/900'),
  /** The highest limit (USD) a partner may give one customer of each type. */
  RAMP_LIMIT_CEILING_INDIVIDUAL: usdAmount.default(DEFAULT_LIMIT_CEILINGS.INDIVIDUAL),
  RAMP_LIMIT_CEILING_BUSINESS: usdAmount.default(DEFAULT_LIMIT_CEILINGS.BUSINESS),
  /** How many proxies in front of the service append to X-Forwarded-For (0: use the socket address). */
  RAMP_TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  RAMP_ORPHAN_FILE_GRACE_MS: ms(3_600_000),
  RAMP_MAX_DOCUMENTS_PER_CUSTOMER: z.coerce.number().int().min(1).max(100_000).default(200),
  RAMP_MAX_DOCUMENT_BYTES_PER_CUSTOMER: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(500 * 1024 * 1024),
  /** All of a partner's stored documents together. */
  RAMP_MAX_DOCUMENT_BYTES_PER_PARTNER: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(100 * 1024 ** 3),
  /** What one line of widget sessions (an onboarding session and the session of the customer it created) may upload. */
  RAMP_MAX_UPLOAD_BYTES_PER_SESSION: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(1024 ** 3),
  /** The same for a line begun by an anonymous visitor (POST /bff/public-session). */
  RAMP_MAX_UPLOAD_BYTES_PER_ANONYMOUS_SESSION: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).default(64 * 1024 ** 2),
  RAMP_VERIFICATION_LINK_TTL_HOURS: z.coerce.number().min(0.25, 'must be at least 0.25 (15 minutes)').max(720, 'must be at most 720 (30 days)').default(24),
  /** The rails money moves on. Only `simulated` is built in, and it serves sandbox only. */
  RAMP_SETTLEMENT_PROVIDER: z.enum(['simulated']).optional(),
  /** Opt-in: comma-separated origins whose pages get anonymous onboarding sessions from POST /bff/public-session. */
  RAMP_PUBLIC_ONBOARDING: z
    .string()
    .regex(/^\s*https?:\/\/[^,\s]+(\s*,\s*https?:\/\/[^,\s]+)*\s*$/, 'must be a comma-separated list of origins such as https://shop.example')
    .optional(),
  /** Delays in seconds between webhook attempts (comma-separated); unset: ~3 days in production, ~2 minutes in sandbox. */
  RAMP_WEBHOOK_SCHEDULE: z.string().optional(),
  RAMP_WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** How often a process looks for new events and due webhook attempts (0: never; this process then delivers none). */
  RAMP_WEBHOOK_POLL_MS: ms(500),
  /** Webhook attempts one process has in flight at most, over every endpoint. */
  RAMP_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
  /** Attempts to one endpoint one process has in flight at most: a slow receiver holds this many slots, no more. */
  RAMP_WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(2),
  /** Failed attempts in a row after which the service pauses an endpoint (0: never). */
  RAMP_WEBHOOK_PAUSE_AFTER: z.coerce.number().int().min(0).max(100_000).default(20),
  // On-chain settlement: a chain with an RPC URL settles on its node; its tokens and confirmations beside it.
  RAMP_CHAIN_RPC_ETHEREUM: url.optional(),
  RAMP_CHAIN_RPC_BASE: url.optional(),
  RAMP_CHAIN_RPC_POLYGON: url.optional(),
  RAMP_CHAIN_TOKEN_ETHEREUM_USDC: tokenAddress,
  RAMP_CHAIN_TOKEN_ETHEREUM_USDT: tokenAddress,
  RAMP_CHAIN_TOKEN_BASE_USDC: tokenAddress,
  RAMP_CHAIN_TOKEN_BASE_USDT: tokenAddress,
  RAMP_CHAIN_TOKEN_POLYGON_USDC: tokenAddress,
  RAMP_CHAIN_TOKEN_POLYGON_USDT: tokenAddress,
  RAMP_CHAIN_CONFIRMATIONS_ETHEREUM: confirmations,
  RAMP_CHAIN_CONFIRMATIONS_BASE: confirmations,
  RAMP_CHAIN_CONFIRMATIONS_POLYGON: confirmations,
  /** How often each process looks at the payouts due (and the first pause after a failure, doubling to RAMP_CHAIN_RETRY_MAX_MS). */
  RAMP_CHAIN_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(2000),
  RAMP_CHAIN_RETRY_MAX_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** A payout not in a block this long after it was signed is signed again on its nonce with higher fees. */
  RAMP_CHAIN_REPLACE_AFTER_MS: z.coerce.number().int().min(1000).max(86_400_000).default(180_000),
  RAMP_CHAIN_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  // PIX through a real PSP: BACEN's API Pix for receiving, envio de Pix for payouts. Unset: simulated (sandbox only).
  /** The PSP's API Pix base, version included (https://pix.example.com/v2). */
  RAMP_PIX_PSP_URL: z.url({ protocol: /^https$/, error: 'must be an https:// URL (the API Pix base, version included)' }).transform((u) => u.replace(/\/+$/, '')).optional(),
  RAMP_PIX_OAUTH_URL: z.url({ protocol: /^https$/, error: 'must be an https:// URL (the PSP\'s OAuth 2 token endpoint)' }).optional(),
  RAMP_PIX_CLIENT_ID: z.string().min(1).optional(),
  RAMP_PIX_CLIENT_SECRET: z.string().min(1).optional(),
  /** PEM files: the client certificate and its key for mutual TLS, and optionally the CA the PSP's server certificate chains to. */
  RAMP_PIX_CERT: z.string().min(1).optional(),
  RAMP_PIX_CERT_KEY: z.string().min(1).optional(),
  RAMP_PIX_CA: z.string().min(1).optional(),
  /** Our receiving Pix key (`chave`): an EVP, CNPJ, e-mail or phone, at most 77 characters. */
  RAMP_PIX_KEY: z.string().min(1).max(77, 'must be a Pix key of at most 77 characters').optional(),
  RAMP_PIX_PAYOUT_PROVIDER: z.enum(['efi'], { error: 'must be efi (the only payout adapter built in: Efí\'s envio de Pix)' }).optional(),
  RAMP_PIX_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** How often open charges and payouts are looked at; a charge's or payout's pause doubles from it with each check, up to 30 s. */
  RAMP_PIX_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(5000),
  /** Prometheus metrics at /metrics on a listener of their own (off when unset; 0: a port the system picks, logged). */
  RAMP_METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  /** Interface of the metrics listener: loopback unless the scraper is elsewhere. */
  RAMP_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Server processes: a number, or `auto` for one per core. More than one needs PostgreSQL (PGlite belongs to one process). */
  RAMP_WORKERS: z
    .string()
    .regex(/^(auto|[1-9]\d{0,2})$/, 'must be auto or a number of processes from 1 to 999')
    .default('1'),
});

export type Env = z.infer<typeof ConfigSchema>;

export interface Config extends Omit<Env, 'HOST'> {
  HOST: string;
  /** The origin that links (verification, block explorers of our own pages) are built on. */
  publicUrl: string;
  sandbox: boolean;
  fees: FeeSchedule;
  spreadBps: string;
  /** Seconds between webhook attempts (RAMP_WEBHOOK_SCHEDULE). */
  webhookSchedule: number[];
  /** Server processes to run (RAMP_WORKERS, `auto` resolved to the cores this machine offers). */
  workers: number;
  /** The chains that settle on a node (RAMP_CHAIN_RPC_<CHAIN> set), in EVM_CHAINS order. */
  chains: ChainSettings[];
  /** The PSP PIX goes through (RAMP_PIX_PSP_URL set); undefined: PIX is simulated (sandbox only). */
  pix?: PixSettings;
}

/** A configured PSP, its PEM files read. */
export interface PixSettings {
  pspUrl: string;
  oauthUrl: string;
  clientId: string;
  clientSecret: string;
  cert?: string;
  certKey?: string;
  ca?: string;
  key: string;
  payoutProvider: 'efi';
  timeoutMs: number;
  pollMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws one ConfigError whose message names every bad variable, one per line. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked = Object.fromEntries(
    Object.keys(ConfigSchema.shape).map((k) => [k, env[k] === '' ? undefined : env[k]]),
  );
  const parsed = ConfigSchema.safeParse(picked);
  if (!parsed.success) {
    // The variable and what is wrong with it, never its value: secrets (keys, seeds, URLs with passwords) end up in logs.
    const lines = parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
    throw new ConfigError(lines.join('\n'));
  }
  const c = parsed.data;
  if (c.RAMP_ENV === 'production') {
    const missing = (['RAMP_API_KEY', 'RAMP_SESSION_SECRET', 'RAMP_PUBLIC_URL', 'RAMP_WALLET_SEED'] as const).filter((k) => !c[k]);
    if (missing.length) throw new ConfigError(missing.map((k) => `${k}: required when RAMP_ENV=production`).join('\n'));
    if (c.RAMP_API_KEY?.startsWith('sk_sandbox_')) throw new ConfigError('RAMP_API_KEY: a sandbox key cannot serve RAMP_ENV=production');
    // Secrets a person chose rather than a machine drew are refused: named, with why, never echoed.
    const weak = [
      ['RAMP_SESSION_SECRET', weakness(c.RAMP_SESSION_SECRET!)],
      ['RAMP_API_KEY', weakness(c.RAMP_API_KEY!.replace(/^sk_live_/, ''), 80)],
      ['RAMP_WALLET_SEED', seedWeakness(c.RAMP_WALLET_SEED!)],
    ].filter(([, why]) => why);
    if (weak.length) throw new ConfigError(weak.map(([k, why]) => `${k}: not random enough for RAMP_ENV=production (${why}); draw one with \`openssl rand -hex 32\``).join('\n'));
    if (new URL(c.RAMP_PUBLIC_URL!).protocol !== 'https:') throw new ConfigError('RAMP_PUBLIC_URL: must be https:// when RAMP_ENV=production (sessions, links and webhooks travel over it)');
  }
  if (c.RAMP_UPSTREAM_URL) {
    const missing = (['RAMP_API_KEY', 'RAMP_SESSION_SECRET'] as const).filter((k) => !c[k]);
    if (missing.length) throw new ConfigError(missing.map((k) => `${k}: required with RAMP_UPSTREAM_URL (a pure BFF shares the upstream's key and session secret)`).join('\n'));
  }
  let fees = defaultFeeSchedule;
  if (c.RAMP_FEE_SCHEDULE) {
    try {
      fees = parseFeeSchedule(c.RAMP_FEE_SCHEDULE);
    } catch (err) {
      // A JSON parser's message quotes the input; say only that it is not JSON.
      const detail =
        err instanceof FeeScheduleError
          ? err.issues.map((i) => `${i.path}: ${i.message.startsWith('not valid JSON') ? 'not valid JSON' : i.message}`).join('; ')
          : 'not valid';
      throw new ConfigError(`RAMP_FEE_SCHEDULE: ${detail}`);
    }
  }
  let spreadBps: string;
  try {
    spreadBps = parseSpreadBps(c.RAMP_RATE_SPREAD_BPS);
  } catch (err) {
    throw new ConfigError(`RAMP_RATE_SPREAD_BPS: ${(err as Error).message.replace(/^spread: /, '')}`);
  }
  let webhookSchedule = c.RAMP_ENV === 'production' ? PRODUCTION_SCHEDULE_S : SANDBOX_SCHEDULE_S;
  if (c.RAMP_WEBHOOK_SCHEDULE) {
    try {
      webhookSchedule = parseSchedule(c.RAMP_WEBHOOK_SCHEDULE);
    } catch (err) {
      throw new ConfigError(`RAMP_WEBHOOK_SCHEDULE: ${(err as Error).message}`);
    }
  }
  // Redelivery and retries need the event: it outlives the whole schedule of a delivery, with a day to spare.
  const scheduleMs = webhookSchedule.reduce((a, b) => a + b, 0) * 1000;
  if (c.RAMP_EVENT_RETENTION_MS < scheduleMs + 86_400_000) {
    throw new ConfigError(`RAMP_EVENT_RETENTION_MS: must be at least the webhook schedule (${Math.ceil(scheduleMs / 3_600_000)} h) plus a day, so that every retry and redelivery finds its event`);
  }
  // The metrics never share the public port: one listener cannot be both, and /metrics must not reach the internet.
  if (c.RAMP_METRICS_PORT !== undefined && c.RAMP_METRICS_PORT !== 0 && c.RAMP_METRICS_PORT === c.PORT) {
    throw new ConfigError('RAMP_METRICS_PORT: must differ from PORT (metrics are never served on the public port)');
  }
  const chains = chainSettings(c);
  const pix = pixSettings(c);
  const workers = c.RAMP_WORKERS === 'auto' ? (c.DATABASE_URL ? availableParallelism() : 1) : Number(c.RAMP_WORKERS);
  if (workers > 1 && !c.DATABASE_URL) {
    throw new ConfigError('RAMP_WORKERS: more than one process needs DATABASE_URL (PostgreSQL): the embedded PGlite database belongs to one process');
  }
  return {
    ...c,
    webhookSchedule,
    workers,
    chains,
    ...(pix ? { pix } : {}),
    HOST: c.HOST ?? (c.RAMP_ENV === 'sandbox' ? '127.0.0.1' : '0.0.0.0'),
    fees,
    spreadBps,
    publicUrl: c.RAMP_PUBLIC_URL ?? `http://localhost:${c.PORT}`,
    sandbox: c.RAMP_ENV === 'sandbox',
  };
}

/**
 * The configured chains. A token or a confirmation count without its chain's RPC URL, and an RPC URL without any token,
 * are mistakes (a coin that would silently stay simulated, or a chain that can pay nothing): refused, naming the variable.
 */
function chainSettings(c: Env): ChainSettings[] {
  const problems: string[] = [];
  const chains: ChainSettings[] = [];
  for (const blockchain of EVM_CHAINS) {
    const rpcUrl = c[`RAMP_CHAIN_RPC_${blockchain}`];
    const tokens: ChainSettings['tokens'] = {};
    for (const coin of STABLECOINS) {
      const name = `RAMP_CHAIN_TOKEN_${blockchain}_${coin}` as const;
      const token = c[name];
      if (token && !rpcUrl) problems.push(`${name}: set without RAMP_CHAIN_RPC_${blockchain}`);
      if (token) tokens[coin] = token;
    }
    const confirmations = c[`RAMP_CHAIN_CONFIRMATIONS_${blockchain}`];
    if (confirmations !== undefined && !rpcUrl) problems.push(`RAMP_CHAIN_CONFIRMATIONS_${blockchain}: set without RAMP_CHAIN_RPC_${blockchain}`);
    if (!rpcUrl) continue;
    if (Object.keys(tokens).length === 0) problems.push(`RAMP_CHAIN_RPC_${blockchain}: set, but no RAMP_CHAIN_TOKEN_${blockchain}_USDC or _USDT: the chain could pay nothing`);
    const seen = Object.values(tokens);
    if (new Set(seen).size !== seen.length) problems.push(`RAMP_CHAIN_TOKEN_${blockchain}_USDT: the same contract as RAMP_CHAIN_TOKEN_${blockchain}_USDC`);
    chains.push({ blockchain, rpcUrl, tokens, confirmations: confirmations ?? DEFAULT_CONFIRMATIONS[blockchain] });
  }
  if (problems.length) throw new ConfigError(problems.join('\n'));
  return chains;
}

const PIX_VARS = ['RAMP_PIX_PSP_URL', 'RAMP_PIX_OAUTH_URL', 'RAMP_PIX_CLIENT_ID', 'RAMP_PIX_CLIENT_SECRET', 'RAMP_PIX_KEY', 'RAMP_PIX_PAYOUT_PROVIDER'] as const;

/**
 * The PSP, when RAMP_PIX_PSP_URL is set: every other variable it needs is then required, and its PEM files must be
 * readable. A PIX variable without the URL is a mistake (PIX would silently stay simulated): refused, naming it. In
 * production the client certificate is required: real PSPs accept no call without mutual TLS.
 */
function pixSettings(c: Env): PixSettings | undefined {
  const problems: string[] = [];
  const stray = [...PIX_VARS, 'RAMP_PIX_CERT', 'RAMP_PIX_CERT_KEY', 'RAMP_PIX_CA'].filter((k) => k !== 'RAMP_PIX_PSP_URL' && c[k as keyof Env] !== undefined);
  if (!c.RAMP_PIX_PSP_URL) {
    if (stray.length) throw new ConfigError(stray.map((k) => `${k}: set without RAMP_PIX_PSP_URL`).join('\n'));
    return undefined;
  }
  for (const k of PIX_VARS) if (!c[k]) problems.push(`${k}: required with RAMP_PIX_PSP_URL`);
  if (Boolean(c.RAMP_PIX_CERT) !== Boolean(c.RAMP_PIX_CERT_KEY)) problems.push(c.RAMP_PIX_CERT ? 'RAMP_PIX_CERT_KEY: required with RAMP_PIX_CERT' : 'RAMP_PIX_CERT: required with RAMP_PIX_CERT_KEY');
  if (c.RAMP_ENV === 'production' && !c.RAMP_PIX_CERT) problems.push('RAMP_PIX_CERT: required when RAMP_ENV=production (PSPs require mutual TLS)');
  const pem = (name: 'RAMP_PIX_CERT' | 'RAMP_PIX_CERT_KEY' | 'RAMP_PIX_CA'): string | undefined => {
    const file = c[name];
    if (!file) return undefined;
    try {
      const text = readFileSync(file, 'utf8');
      if (!text.includes('-----BEGIN ')) problems.push(`${name}: ${file} is not a PEM file`);
      return text;
    } catch (err) {
      problems.push(`${name}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
      return undefined;
    }
  };
  const cert = pem('RAMP_PIX_CERT');
  const certKey = pem('RAMP_PIX_CERT_KEY');
  const ca = pem('RAMP_PIX_CA');
  if (problems.length) throw new ConfigError(problems.join('\n'));
  return {
    pspUrl: c.RAMP_PIX_PSP_URL,
    oauthUrl: c.RAMP_PIX_OAUTH_URL!,
    clientId: c.RAMP_PIX_CLIENT_ID!,
    clientSecret: c.RAMP_PIX_CLIENT_SECRET!,
    ...(cert ? { cert } : {}),
    ...(certKey ? { certKey } : {}),
    ...(ca ? { ca } : {}),
    key: c.RAMP_PIX_KEY!,
    payoutProvider: c.RAMP_PIX_PAYOUT_PROVIDER!,
    timeoutMs: c.RAMP_PIX_TIMEOUT_MS,
    pollMs: c.RAMP_PIX_POLL_MS,
  };
}
