// PIX off-ramps through the PSP's payout API (Efí's envio de Pix): queued with the idEnvio derived from the transaction when
// the off-ramp reaches TRANSFERRING_FIAT (in that status change's DB transaction), then sent and followed by the PIX
// monitor. SUCCESS only when the PSP says REALIZADO; NAO_REALIZADO (or a refusal of the request) → REFUNDING → REFUNDED,
// the stablecoin back in the wallet. A check always asks the PSP first whether it has the idEnvio, so a process that died
// between the PSP's answer and our record finds the payout again and never sends a second one.
import { type PixPsp, PspRefusedError, PspUnavailableError, idEnvioOf } from '../../domain/pix/pix-psp';
import type { Deps } from '../../deps';
import { type Db, inTransaction } from '../../store/db';
import { type PixPayoutRow, queuePayout, updatePayout } from '../../store/queries/pix';
import { lockTransaction, type TransactionRow } from '../../store/queries/transactions';
import { moveTo } from '../transactions/lifecycle';
import type { TxDeps } from '../transactions/deps';
import { chargeBackoffMs } from './charges';
import { crashPoint } from './crash';

type PixDeps = Pick<Deps, 'store' | 'logger' | 'clock' | 'config' | 'rates' | 'settlement' | 'chains'> & { pix: PixPsp };

const describe = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.replace(/\bhttps?:\/\/\S+/g, '<psp>').slice(0, 300);

/** Whether this off-ramp's fiat leg is a PSP payout (a PIX account, the PSP configured). */
export function isPspPayout(deps: TxDeps, row: TransactionRow): boolean {
  return Boolean(deps.pix) && row.type === 'OFF_RAMP' && row.status === 'TRANSFERRING_FIAT' && (row.payment as { rail?: string } | null)?.rail === 'PIX';
}

/** Queues the payout of an off-ramp at TRANSFERRING_FIAT (in the caller's DB transaction); the monitor sends it. */
export async function queueOffRampPayout(tx: Db, row: TransactionRow, now: Date): Promise<void> {
  const q = row.quote as { finalTargetAmount: string };
  const payment = row.payment as { keyValue: string };
  await queuePayout(tx, { idEnvio: idEnvioOf(row.id), partnerId: row.partnerId, transactionId: row.id, valor: q.finalTargetAmount, favorecidoChave: payment.keyValue }, now);
}

/** One check of a claimed payout. */
export async function checkPayout(deps: PixDeps, row: PixPayoutRow): Promise<void> {
  const now = new Date();
  const later = (set: Partial<PixPayoutRow> = {}) =>
    updatePayout(deps.store.db, row.idEnvio, { checks: row.checks + 1, nextCheckAt: new Date(now.getTime() + chargeBackoffMs(row.checks + 1, deps.config.pix?.pollMs ?? 5000)), ...set }, now);
  try {
    // The PSP first: it may have this payout already (a crash after its answer, a timeout that hid it).
    let known = await deps.pix.getPayout(row.idEnvio);
    if (!known) {
      if (row.status !== 'QUEUED') throw new Error(`payout ${row.idEnvio} was sent but the PSP does not know it`);
      try {
        known = await deps.pix.sendPayout({ idEnvio: row.idEnvio, valor: row.valor, pagadorChave: deps.pix.chave, favorecidoChave: row.favorecidoChave, infoPagador: 'Ramp off-ramp' });
      } catch (err) {
        // 409: the PSP already has this idEnvio (sent by another process in the meantime): read back on the next check.
        if (err instanceof PspRefusedError && err.status === 409) return void (await later({ lastError: describe(err) }));
        if (err instanceof PspRefusedError) return outcome(deps, row, 'NAO_REALIZADO', undefined, `the PSP refused the payout: ${describe(err)}`);
        throw err;
      }
      crashPoint(deps, 'after-payout-sent');
      deps.logger.info({ idEnvio: row.idEnvio, transactionId: row.transactionId, valor: row.valor }, 'payout sent to the PSP');
    }
    if (known.status === 'EM_PROCESSAMENTO') return void (await later({ status: 'SENT', e2eId: known.e2eId ?? null, lastError: null }));
    await outcome(deps, row, known.status, known.e2eId);
  } catch (err) {
    const reason = describe(err);
    if (!(err instanceof PspUnavailableError)) deps.logger.error({ idEnvio: row.idEnvio, reason }, 'payout check failed');
    else deps.logger.warn({ idEnvio: row.idEnvio, reason }, 'PSP unavailable; payout checked again after a pause');
    await later({ lastError: reason }).catch(() => undefined);
  }
}

/** The payout's outcome and its off-ramp's next status, in one DB transaction. */
async function outcome(deps: PixDeps, row: PixPayoutRow, status: 'REALIZADO' | 'NAO_REALIZADO', e2eId: string | undefined, why?: string): Promise<void> {
  const now = new Date();
  await inTransaction(deps.store.db, async (tx) => {
    await updatePayout(tx, row.idEnvio, { status, e2eId: e2eId ?? row.e2eId, lastError: why ?? null }, now);
    const t = await lockTransaction(tx, row.partnerId, row.transactionId);
    if (!t || t.status !== 'TRANSFERRING_FIAT') return;
    if (status === 'REALIZADO') {
      await moveTo(tx, deps, t, 'SUCCESS');
      deps.logger.info({ idEnvio: row.idEnvio, transactionId: t.id, e2eId }, 'payout REALIZADO; off-ramp SUCCESS');
    } else {
      await moveTo(tx, deps, t, 'REFUNDING', { error: { code: 'PAYOUT_FAILED', message: why ?? 'The PSP could not make the Pix (NAO_REALIZADO); the stablecoin is returned to the wallet.' } });
      deps.logger.warn({ idEnvio: row.idEnvio, transactionId: t.id, why }, 'payout NAO_REALIZADO; off-ramp refunded');
    }
  });
}
