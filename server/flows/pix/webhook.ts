// The PSP's callbacks: registered at start under RAMP_PUBLIC_URL with a path that carries an unguessable token (shared by
// every process through the database, so registering again is the same registration), and handled as hints only: each
// Pix a callback names is read back from the PSP before anything moves.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../deps';
import type { PixPsp } from '../../domain/pix/pix-psp';
import { getOrInitSetting } from '../../store/queries/settings';
import { confirmPix } from './charges';
import { checkPayout } from './payouts';
import { payoutOf } from '../../store/queries/pix';

type PixDeps = Deps & { pix: PixPsp };

const TOKEN_SETTING = 'pix_webhook_token';

/** The path the PSP calls (it POSTs `{webhookUrl}/pix`), under RAMP_PUBLIC_URL. */
export const WEBHOOK_PREFIX = '/psp/pix/';

export async function webhookToken(deps: Pick<Deps, 'store'>): Promise<string> {
  return getOrInitSetting(deps.store.db, TOKEN_SETTING, () => randomBytes(24).toString('base64url'));
}

/** PUT /webhook/{chave} with our URL: idempotent, so every start (of every process) does it. */
export async function registerWebhook(deps: PixDeps): Promise<string> {
  const url = `${deps.config.publicUrl}${WEBHOOK_PREFIX}${await webhookToken(deps)}`;
  await deps.pix.configureWebhook(deps.pix.chave, url);
  deps.logger.info({ chave: deps.pix.chave }, 'PSP webhook registered');
  return url;
}

/** Whether `given` is the token (constant time). */
export async function isWebhookToken(deps: Pick<Deps, 'store'>, given: string): Promise<boolean> {
  const expected = Buffer.from(await webhookToken(deps));
  const got = Buffer.from(given);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/**
 * A callback's body: `{pix: [...]}` (API Pix `WebhookPixBody`; Efí adds its envios with `gnExtras.idEnvio`). Only the
 * end-to-end ids are taken from it, each confirmed with the PSP; a forged one names a Pix the PSP does not have, a
 * replayed one a Pix already recorded. Failures are left to the poller. Answers how many were credited.
 */
export async function handleCallback(deps: PixDeps, body: unknown): Promise<number> {
  const items = Array.isArray((body as { pix?: unknown })?.pix) ? ((body as { pix: unknown[] }).pix.slice(0, 100) as Record<string, unknown>[]) : [];
  let credited = 0;
  for (const item of items) {
    if (typeof item?.endToEndId !== 'string') continue;
    try {
      // An envio's outcome (Efí, `gnExtras.idEnvio`): the payout is read back from the PSP now; nothing is taken from here.
      const idEnvio = (item.gnExtras as { idEnvio?: unknown } | undefined)?.idEnvio;
      if (item.gnExtras) {
        const payout = typeof idEnvio === 'string' ? await payoutOf(deps.store.db, idEnvio) : undefined;
        if (payout && (payout.status === 'QUEUED' || payout.status === 'SENT')) await checkPayout(deps, payout);
        continue;
      }
      if ((await confirmPix(deps, item.endToEndId)) === 'credited') credited++;
    } catch (err) {
      deps.logger.warn({ e2eid: item.endToEndId, reason: (err as Error).message?.split('\n')[0] }, 'callback Pix not confirmed now; the poller finds it');
    }
  }
  return credited;
}
