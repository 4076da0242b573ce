// The receiving side of a PSP through BACEN's standard API Pix (version 2.9.0): immediate charges, received Pix, refunds
// and the webhook. Request bodies follow the document's components (named beside each); answers are read defensively.
import type { ChargeStatus, CreateChargeRequest, PixCharge, PixReceiving, PixRefund, ReceivedPix, RefundStatus } from '../../domain/pix/pix-psp';
import type { PspHttp } from './psp-http';

const enc = encodeURIComponent;

/** API Pix `Devolucao` → PixRefund. */
function refundOf(d: Record<string, unknown>): PixRefund {
  return { id: String(d.id), rtrId: String(d.rtrId ?? ''), valor: String(d.valor), status: String(d.status) as RefundStatus, ...(d.motivo ? { motivo: String(d.motivo) } : {}) };
}

/** API Pix `Pix` → ReceivedPix. */
function pixOf(p: Record<string, unknown>): ReceivedPix {
  const devolucoes = Array.isArray(p.devolucoes) ? (p.devolucoes as Record<string, unknown>[]).map(refundOf) : [];
  return {
    endToEndId: String(p.endToEndId),
    ...(p.txid ? { txid: String(p.txid) } : {}),
    valor: String(p.valor),
    horario: String(p.horario),
    ...(p.chave ? { chave: String(p.chave) } : {}),
    devolucoes,
  };
}

/** API Pix `CobGerada` / `CobCompleta` → PixCharge. */
function chargeOf(c: Record<string, unknown>): PixCharge {
  const calendario = (c.calendario ?? {}) as { criacao?: string; expiracao?: number };
  const valor = (c.valor ?? {}) as { original?: string };
  return {
    txid: String(c.txid),
    status: String(c.status) as ChargeStatus,
    valor: String(valor.original),
    ...(c.pixCopiaECola ? { pixCopiaECola: String(c.pixCopiaECola) } : {}),
    expiracao: Number(calendario.expiracao ?? 86_400),
    criacao: String(calendario.criacao ?? ''),
    pix: Array.isArray(c.pix) ? (c.pix as Record<string, unknown>[]).map(pixOf) : [],
  };
}

/** Pages of GET /pix asked for at once (API Pix `itensPorPagina`), and at most this many pages per listing. */
const PAGE_SIZE = 100;
const MAX_PAGES = 1000;

export function apiPixReceiving(http: PspHttp): PixReceiving {
  return {
    async createCharge(r: CreateChargeRequest) {
      const path = `/cob/${enc(r.txid)}`;
      // API Pix `CobSolicitada`: calendario (CobExpiracao), devedor (PessoaFisica | PessoaJuridica), valor (CobValor,
      // `original` required), chave and solicitacaoPagador (CobBase).
      const body = {
        calendario: { expiracao: r.expiracao },
        ...(r.devedor ? { devedor: r.devedor } : {}),
        valor: { original: r.valor },
        chave: r.chave,
        ...(r.solicitacaoPagador ? { solicitacaoPagador: r.solicitacaoPagador.slice(0, 140) } : {}),
      };
      const res = await http.call('PUT', path, { body });
      if (res.status !== 201 && res.status !== 200) throw http.refused('PUT', path, res);
      return chargeOf(res.body as Record<string, unknown>);
    },

    async getCharge(txid) {
      const path = `/cob/${enc(txid)}`;
      const res = await http.call('GET', path);
      if (res.status === 404) return null;
      if (res.status !== 200) throw http.refused('GET', path, res);
      return chargeOf(res.body as Record<string, unknown>);
    },

    async removeCharge(txid) {
      const path = `/cob/${enc(txid)}`;
      // API Pix `CobRevisada`: only `status` REMOVIDA_PELO_USUARIO_RECEBEDOR.
      const res = await http.call('PATCH', path, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
      if (res.status !== 200) throw http.refused('PATCH', path, res);
      return chargeOf(res.body as Record<string, unknown>);
    },

    async getPix(e2eid) {
      const path = `/pix/${enc(e2eid)}`;
      const res = await http.call('GET', path);
      if (res.status === 404) return null;
      if (res.status !== 200) throw http.refused('GET', path, res);
      return pixOf(res.body as Record<string, unknown>);
    },

    async listReceived({ inicio, fim }) {
      const all: ReceivedPix[] = [];
      for (let page = 0; page < MAX_PAGES; page++) {
        // API Pix GET /pix: `inicio` and `fim` required, `paginacao.paginaAtual` and `paginacao.itensPorPagina` optional.
        const res = await http.call('GET', '/pix', {
          query: { inicio: inicio.toISOString(), fim: fim.toISOString(), 'paginacao.paginaAtual': String(page), 'paginacao.itensPorPagina': String(PAGE_SIZE) },
        });
        if (res.status !== 200) throw http.refused('GET', '/pix', res);
        // API Pix `PixConsultados`: `parametros.paginacao` says how many pages there are.
        const body = res.body as { pix?: Record<string, unknown>[]; parametros?: { paginacao?: { quantidadeDePaginas?: number } } };
        all.push(...(body.pix ?? []).map(pixOf));
        const pages = Number(body.parametros?.paginacao?.quantidadeDePaginas ?? 1);
        if (page + 1 >= pages) break;
      }
      return all;
    },

    async refund({ e2eid, id, valor, descricao }) {
      const path = `/pix/${enc(e2eid)}/devolucao/${enc(id)}`;
      // API Pix `DevolucaoSolicitada`: valor, natureza ORIGINAL (a Pix paid back, not a withdrawal), descricao.
      const res = await http.call('PUT', path, { body: { valor, natureza: 'ORIGINAL', ...(descricao ? { descricao: descricao.slice(0, 140) } : {}) } });
      if (res.status !== 201 && res.status !== 200) throw http.refused('PUT', path, res);
      return refundOf(res.body as Record<string, unknown>);
    },

    async getRefund(e2eid, id) {
      const path = `/pix/${enc(e2eid)}/devolucao/${enc(id)}`;
      const res = await http.call('GET', path);
      if (res.status === 404) return null;
      if (res.status !== 200) throw http.refused('GET', path, res);
      return refundOf(res.body as Record<string, unknown>);
    },

    async configureWebhook(chave, webhookUrl) {
      const path = `/webhook/${enc(chave)}`;
      // API Pix `WebhookSolicitado`.
      const res = await http.call('PUT', path, { body: { webhookUrl } });
      if (res.status < 200 || res.status > 299) throw http.refused('PUT', path, res);
    },
  };
}
