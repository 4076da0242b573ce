// Structured logs (pino). Keys, tokens and tax ids never reach them: we log no bodies and redact the fields that could carry secrets.
import { type DestinationStream, pino, type Logger } from 'pino';

export type { Logger };

const redact = ['authorization', '*.authorization', 'apiKey', '*.apiKey', 'token', '*.token', 'taxId', '*.taxId', 'secret', '*.secret'];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, base: { service: 'ramp' }, redact: { paths: redact, censor: '[redacted]' } }, destination);
}
