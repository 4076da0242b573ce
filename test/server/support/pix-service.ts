// The service wired to the PSP double, listening on a real port so that the double's callbacks reach it over HTTP, with
// its PIX monitor run by hand (`monitor.runDue()`) so a test decides when the poller looks.
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { pixMonitor, type PixMonitor } from '../../../server/workers/pix-monitor';
import { startTestServer, type TestServer } from '../harness';
import type { PspDouble } from './psp-double';

export interface PixService {
  server: TestServer;
  monitor: PixMonitor;
  base: string;
  close(): Promise<void>;
}

export async function startPixService(double: PspDouble, env: Record<string, string> = {}, opts: Parameters<typeof startTestServer>[1] = {}): Promise<PixService> {
  let server: TestServer | undefined;
  const listener = createAdaptorServer({ fetch: (req: Request, e: unknown) => (server ? server.app.fetch(req, e) : new Response(null, { status: 503 })), hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(listener.address() as { port: number }).port}`;
  server = await startTestServer({ ...double.env(), RAMP_PUBLIC_URL: base, RAMP_PIX_POLL_MS: '50', RAMP_PIX_TIMEOUT_MS: '1500', RAMP_SANDBOX_REVIEW_MS: '60000', ...env }, opts);
  const monitor = pixMonitor(server.deps)!;
  return {
    server,
    monitor,
    base,
    async close() {
      await monitor.stop();
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
      (server!.deps.pix as { close?: () => void } | undefined)?.close?.();
      await server!.close();
    },
  };
}
