// Structured logs (pino). Keys, tokens and tax ids never reach them: we log no bodies and redact the headers that carry secrets.
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'ramp' },
    redact: {
      paths: ['authorization', '*.authorization', 'apiKey', '*.apiKey', 'token', '*.token', 'taxId', '*.taxId', 'secret', '*.secret'],
      censor: '[redacted]',
    },
  });
}
