// POST /psp/pix/{token}/pix: where the PSP sends its callbacks. Not part of the partner API (no API key, not in the
// OpenAPI document): the unguessable token in the path is the only way in, and every callback is a hint confirmed with the PSP.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { PixPsp } from '../domain/pix/pix-psp';
import { handleCallback, isWebhookToken } from '../flows/pix/webhook';
import type { Deps } from '../deps';
import type { AppEnv } from './env';

const MAX_CALLBACK_BYTES = 256 * 1024;

export function pspWebhooksApp(deps: Deps & { pix: PixPsp }) {
  const app = new Hono<AppEnv>();
  // A callback names at most a hundred Pix: a few kilobytes. Anything far larger is refused before it is read.
  app.post('/psp/pix/:token/pix', bodyLimit({ maxSize: MAX_CALLBACK_BYTES, onError: (c) => c.body(null, 413) }), async (c) => {
    if (!(await isWebhookToken(deps, c.req.param('token')))) return c.body(null, 404);
    const body = await c.req.json().catch(() => undefined);
    await handleCallback(deps, body);
    // The PSP needs only a 2xx: what the callback named is acted on once confirmed, whatever it claimed.
    return c.body(null, 200);
  });
  return app;
}
