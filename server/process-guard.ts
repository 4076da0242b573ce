// The process's last resort: an error nobody caught is logged and the process keeps serving. One client's bad
// request (an aborted upload, a dropped socket) must never take every other client down with it.
import type { Logger } from './logger';

export function installProcessGuards(logger: Logger): void {
  process.on('uncaughtException', (err, origin) => {
    logger.error({ err, origin }, 'uncaught exception; the process keeps serving');
  });
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'unhandled promise rejection; the process keeps serving');
  });
}
