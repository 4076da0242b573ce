// Payouts through Efí's "envio de Pix" (not standardised by BACEN yet), as Efí publishes it at
// https://dev.efipay.com.br/docs/api-pix/envio-pagamento-pix/ : PUT /v2/gn/pix/{idEnvio} (scope pix.send) with
// `{valor, pagador: {chave, infoPagador?}, favorecido: {chave}}`, answered 201 `{idEnvio, e2eId, valor, horario, status}`;
// read back at GET /v2/gn/pix/enviados/id-envio/{idEnvio}; statuses EM_PROCESSAMENTO, REALIZADO, NAO_REALIZADO
// (https://dev.efipay.com.br/en/docs/api-pix/status/); the outcome is also POSTed to the webhook of the payer's key. The
// list of Pix sent, GET /v2/gn/pix/enviados?inicio&fim, pages like the API Pix's GET /pix (`parametros.paginacao`, `pix`).
import type { PayoutStatus, PixPayout, PixPayouts } from '../../domain/pix/pix-psp';
import type { PspHttp } from './psp-http';

const enc = encodeURIComponent;

function payoutOf(idEnvio: string, b: Record<string, unknown>): PixPayout {
  // The creation answer names the end-to-end id `e2eId`, the read-back `endToEndId`.
  const e2e = b.e2eId ?? b.endToEndId;
  return { idEnvio: String(b.idEnvio ?? idEnvio), ...(e2e ? { e2eId: String(e2e) } : {}), valor: String(b.valor), status: String(b.status) as PayoutStatus };
}

export function efiPayouts(http: PspHttp): PixPayouts {
  return {
    async sendPayout(r) {
      const path = `/gn/pix/${enc(r.idEnvio)}`;
      const body = { valor: r.valor, pagador: { chave: r.pagadorChave, ...(r.infoPagador ? { infoPagador: r.infoPagador.slice(0, 140) } : {}) }, favorecido: { chave: r.favorecidoChave } };
      const res = await http.call('PUT', path, { body });
      if (res.status !== 201 && res.status !== 200) throw http.refused('PUT', path, res);
      return payoutOf(r.idEnvio, res.body as Record<string, unknown>);
    },

    async listPayouts({ inicio, fim }) {
      const all: PixPayout[] = [];
      for (let page = 0; page < 1000; page++) {
        const res = await http.call('GET', '/gn/pix/enviados', { query: { inicio: inicio.toISOString(), fim: fim.toISOString(), 'paginacao.paginaAtual': String(page), 'paginacao.itensPorPagina': '100' } });
        if (res.status !== 200) throw http.refused('GET', '/gn/pix/enviados', res);
        const body = res.body as { pix?: Record<string, unknown>[]; parametros?: { paginacao?: { quantidadeDePaginas?: number } } };
        all.push(...(body.pix ?? []).map((p) => payoutOf(String(p.idEnvio ?? ''), p)));
        if (page + 1 >= Number(body.parametros?.paginacao?.quantidadeDePaginas ?? 1)) break;
      }
      return all;
    },

    async getPayout(idEnvio) {
      const path = `/gn/pix/enviados/id-envio/${enc(idEnvio)}`;
      const res = await http.call('GET', path);
      if (res.status === 404) return null;
      if (res.status !== 200) throw http.refused('GET', path, res);
      return payoutOf(idEnvio, res.body as Record<string, unknown>);
    },
  };
}
