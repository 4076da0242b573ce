// Fixture: an HTTP server with the process guards of server/main.ts, and routes that throw where no one catches.
import { createServer } from 'node:http';
import { createLogger } from '../../../server/logger';
import { installProcessGuards } from '../../../server/process-guard';

installProcessGuards(createLogger('info'));
const server = createServer((req, res) => {
  if (req.url === '/throw') setImmediate(() => { throw new Error('thrown outside any handler'); });
  if (req.url === '/reject') void Promise.reject(new Error('rejected with no catch'));
  res.end('ok');
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port, msg: 'listening' })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
