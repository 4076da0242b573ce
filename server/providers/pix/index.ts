// The PSP the configuration names: BACEN's API Pix for receiving, and the payout adapter RAMP_PIX_PAYOUT_PROVIDER picks
// (an exhaustive switch: a new PSP's payouts are one more file and one more case).
import type { PixSettings } from '../../config';
import type { PixPayouts, PixPsp } from '../../domain/pix/pix-psp';
import { apiPixReceiving } from './api-pix';
import { efiPayouts } from './efi-payouts';
import { PspHttp } from './psp-http';

export function pixPsp(s: PixSettings): PixPsp & { close(): void } {
  const http = new PspHttp({ baseUrl: s.pspUrl, oauthUrl: s.oauthUrl, clientId: s.clientId, clientSecret: s.clientSecret, cert: s.cert, key: s.certKey, ca: s.ca, timeoutMs: s.timeoutMs });
  let payouts: PixPayouts;
  switch (s.payoutProvider) {
    case 'efi':
      payouts = efiPayouts(http);
      break;
  }
  return { name: `api-pix+${s.payoutProvider}`, chave: s.key, ...apiPixReceiving(http), ...payouts, close: () => http.close() };
}
