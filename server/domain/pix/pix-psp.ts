// The PixPsp port: what the service needs from a Brazilian PSP — receiving through BACEN's standard API Pix (immediate
// charges `cob`, received Pix, refunds `devolução`, the webhook) and sending through a payout API (Efí's "envio de Pix"
// first), in plain types. The HTTP adapters are server/providers/pix/*; nothing here knows HTTP.
import { createHash } from 'node:crypto';

/** API Pix `CobrancaStatus`. */
export type ChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
/** API Pix `Devolucao.status`. */
export type RefundStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
/** Efí's envio de Pix statuses. */
export type PayoutStatus = 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';

/** The payer named on a charge (API Pix `PessoaFisica` / `PessoaJuridica`): digits only. */
export type Debtor = { cpf: string; nome: string } | { cnpj: string; nome: string };

export interface PixRefund {
  /** Ours (derived, see refundIdOf). */
  id: string;
  rtrId: string;
  /** BRL, two decimals. */
  valor: string;
  status: RefundStatus;
  motivo?: string;
}

/** A Pix received into our account (API Pix `Pix`). */
export interface ReceivedPix {
  endToEndId: string;
  txid?: string;
  valor: string;
  /** ISO date-time the PSP says it settled. */
  horario: string;
  chave?: string;
  devolucoes: PixRefund[];
}

/** An immediate charge (API Pix `CobCompleta`, the fields we use). */
export interface PixCharge {
  txid: string;
  status: ChargeStatus;
  valor: string;
  /** The BR Code the payer's bank app reads (`pixCopiaECola`). */
  pixCopiaECola?: string;
  /** Seconds from `criacao` the charge can be paid. */
  expiracao: number;
  criacao: string;
  pix: ReceivedPix[];
}

export interface PixPayout {
  idEnvio: string;
  /** The end-to-end id of the Pix sent, once the PSP gave one. */
  e2eId?: string;
  valor: string;
  status: PayoutStatus;
}

export interface CreateChargeRequest {
  txid: string;
  /** Seconds the charge can be paid. */
  expiracao: number;
  valor: string;
  chave: string;
  devedor?: Debtor;
  solicitacaoPagador?: string;
}

export interface PayoutRequest {
  idEnvio: string;
  valor: string;
  /** Our key (the account the money leaves). */
  pagadorChave: string;
  /** The payee's key. */
  favorecidoChave: string;
  infoPagador?: string;
}

/** Receiving, as BACEN's API Pix standardises it. */
export interface PixReceiving {
  /** PUT /cob/{txid}. Creating the same txid again is refused by the PSP; callers read it back with getCharge first. */
  createCharge(req: CreateChargeRequest): Promise<PixCharge>;
  /** GET /cob/{txid}; null when the PSP has no such charge. */
  getCharge(txid: string): Promise<PixCharge | null>;
  /** PATCH /cob/{txid} status REMOVIDA_PELO_USUARIO_RECEBEDOR. */
  removeCharge(txid: string): Promise<PixCharge>;
  /** GET /pix/{e2eid}; null when the PSP has no such Pix. */
  getPix(e2eid: string): Promise<ReceivedPix | null>;
  /** GET /pix?inicio&fim, every page. */
  listReceived(p: { inicio: Date; fim: Date }): Promise<ReceivedPix[]>;
  /** PUT /pix/{e2eid}/devolucao/{id}: the same id twice is the same refund, never a second one. */
  refund(p: { e2eid: string; id: string; valor: string; descricao?: string }): Promise<PixRefund>;
  /** GET /pix/{e2eid}/devolucao/{id}; null when unknown. */
  getRefund(e2eid: string, id: string): Promise<PixRefund | null>;
  /** PUT /webhook/{chave}: the PSP then POSTs `{webhookUrl}/pix`. Idempotent. */
  configureWebhook(chave: string, webhookUrl: string): Promise<void>;
}

/** Sending: not standardised by BACEN yet; Efí's envio de Pix is the first adapter. */
export interface PixPayouts {
  /** PUT …/gn/pix/{idEnvio}: the same idEnvio twice is the same payout. */
  sendPayout(req: PayoutRequest): Promise<PixPayout>;
  /** GET …/gn/pix/enviados/id-envio/{idEnvio}; null when the PSP has none. */
  getPayout(idEnvio: string): Promise<PixPayout | null>;
  /** GET …/gn/pix/enviados?inicio&fim, every page: the payouts the PSP made from our account (reconciliation). */
  listPayouts(p: { inicio: Date; fim: Date }): Promise<PixPayout[]>;
}

export interface PixPsp extends PixReceiving, PixPayouts {
  /** Shown in logs: `api-pix+efi`. */
  readonly name: string;
  /** Our receiving key (RAMP_PIX_KEY). */
  readonly chave: string;
}

// ---------------------------------------------------------------------------------------------------------
// Errors: what a caller does next differs, so each is its own type.

/** The PSP could not be reached or answered with an error of its own (timeout, 5xx, 429): nothing is known; retry later. */
export class PspUnavailableError extends Error {
  override name = 'PspUnavailableError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The PSP refused the request (4xx): sending it again as it is will not help. */
export class PspRefusedError extends Error {
  override name = 'PspRefusedError';
  constructor(
    readonly status: number,
    message: string,
    /** API Pix `Problema.violacoes`, when the PSP named them. */
    readonly violations: { razao?: string; propriedade?: string }[] = [],
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Ids derived from ours, so that a retry (or a process that died before recording the answer) asks for the same thing.

const hexOf = (uuid: string): string => {
  const h = uuid.replaceAll('-', '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(h)) throw new Error(`not a uuid: ${uuid}`);
  return h;
};

/** A charge's txid: the transaction's 32 hex digits (API Pix `TxId`: 26–35 letters and digits). */
export const txidOf = (transactionId: string): string => hexOf(transactionId);

/**
 * The txid of an on-ramp asked for with an Idempotency-Key: `K` and 34 hex digits of a hash of the partner and the key, so
 * the same request asked again (after a process died between the PSP's answer and the commit) asks for the same charge.
 */
export const txidForKey = (partnerId: string, idempotencyKey: string): string => `K${createHash('sha256').update(`${partnerId}\0${idempotencyKey}`).digest('hex').slice(0, 34)}`;

/** A payout's idEnvio: `P` and the transaction's 32 hex digits (Efí: 1–35 letters and digits). */
export const idEnvioOf = (transactionId: string): string => `P${hexOf(transactionId)}`;

/** The refund of a whole received Pix: `D` and its end-to-end id, at most 35 (API Pix `DevolucaoId`: 1–35 letters and digits). */
export const refundIdOf = (e2eid: string): string => `D${e2eid}`.slice(0, 35);

export const TXID = /^[a-zA-Z0-9]{26,35}$/;
export const E2EID = /^[a-zA-Z0-9]{32}$/;
