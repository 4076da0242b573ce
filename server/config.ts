// Process configuration: read from the environment once, validated, with one clear line per bad value.
import { z } from 'zod';
import { defaultFeeSchedule, type FeeSchedule, FeeScheduleError, parseFeeSchedule } from './domain/fee-schedule';
import { parseSpreadBps } from './domain/rates/rate-source';

const url = z.url({ protocol: /^https?$/ }).transform((u) => u.replace(/\/+$/, ''));
const ms = (fallback: number) => z.coerce.number().int().min(0).max(86_400_000).default(fallback);

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8787),
  HOST: z.string().min(1).default('0.0.0.0'),
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
  RAMP_DEFAULT_BLOCKCHAIN: z.enum(['ETHEREUM', 'BASE', 'TRON', 'POLYGON']).default('POLYGON'),
  RAMP_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RAMP_SANDBOX_REVIEW_MS: ms(1500),
  RAMP_SANDBOX_BANK_ACCOUNT_MS: ms(1000),
  RAMP_SANDBOX_STEP_MS: ms(800),
  RAMP_SANDBOX_AUTOPAY_MS: ms(0),
});

export type Env = z.infer<typeof ConfigSchema>;

export interface Config extends Env {
  /** The origin that links (verification, block explorers of our own pages) are built on. */
  publicUrl: string;
  sandbox: boolean;
  fees: FeeSchedule;
  spreadBps: string;
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
    const lines = parsed.error.issues.map((i) => `${String(i.path[0])}: ${i.message} (got ${JSON.stringify(picked[String(i.path[0])])})`);
    throw new ConfigError(lines.join('\n'));
  }
  const c = parsed.data;
  if (c.RAMP_ENV === 'production') {
    const missing = (['RAMP_API_KEY', 'RAMP_SESSION_SECRET', 'RAMP_PUBLIC_URL', 'RAMP_WALLET_SEED'] as const).filter((k) => !c[k]);
    if (missing.length) throw new ConfigError(missing.map((k) => `${k}: required when RAMP_ENV=production`).join('\n'));
    if (c.RAMP_API_KEY?.startsWith('sk_sandbox_')) throw new ConfigError('RAMP_API_KEY: a sandbox key cannot serve RAMP_ENV=production');
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
      const detail = err instanceof FeeScheduleError ? err.message.replaceAll('\n', '; ') : (err as Error).message;
      throw new ConfigError(`RAMP_FEE_SCHEDULE: ${detail}`);
    }
  }
  let spreadBps: string;
  try {
    spreadBps = parseSpreadBps(c.RAMP_RATE_SPREAD_BPS);
  } catch (err) {
    throw new ConfigError(`RAMP_RATE_SPREAD_BPS: ${(err as Error).message.replace(/^spread: /, '')}`);
  }
  return {
    ...c,
    fees,
    spreadBps,
    publicUrl: c.RAMP_PUBLIC_URL ?? `http://localhost:${c.PORT}`,
    sandbox: c.RAMP_ENV === 'sandbox',
  };
}
