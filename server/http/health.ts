// /healthz (the process answers) and /readyz (the database answers too).
import { Hono } from 'hono';
import type { Store } from '../store/db';

export function healthApp(store: Store) {
  return new Hono()
    .get('/healthz', (c) => c.json({ status: 'ok' }))
    .get('/readyz', async (c) => ((await store.ping()) ? c.json({ status: 'ready', database: store.kind }) : c.json({ status: 'unavailable', database: store.kind }, 503)));
}
