// The environment of a production process in tests: every required setting, with secrets drawn as a machine draws them
// (production refuses guessable ones at start) and an https public URL.
import { randomBytes } from 'node:crypto';
import { generateApiKey } from '../../../server/domain/api-keys';

export function productionEnv(over: Record<string, string> = {}) {
  return {
    RAMP_ENV: 'production',
    RAMP_API_KEY: generateApiKey('production'),
    RAMP_SESSION_SECRET: randomBytes(32).toString('hex'),
    RAMP_PUBLIC_URL: 'https://ramp.example',
    RAMP_WALLET_SEED: randomBytes(32).toString('hex'),
    ...over,
  };
}
