// A PSP of the repo's own for tests: BACEN's API Pix (charges, received Pix, refunds, webhook) and Efí's envio de Pix,
// over HTTPS with client certificates (test/server/support/pki), behind OAuth 2 client credentials. Every request the
// adapter sends is validated against schemas transcribed from the standard (psp-schemas.ts); a non-conforming one is
// answered 400 with the API Pix problem shape AND recorded, so a test fails on it (`assertConforming`). Tests drive it:
// pay a charge (any amount, even after expiry), settle or refuse a payout or a refund, drop callbacks, go down, go slow,
// expire tokens.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Decimal } from 'decimal.js';
import * as S from './psp-schemas';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const pki = (name: string) => readFileSync(new URL(`./pki/${name}`, import.meta.url), 'utf8');

/** The test PKI: the CA the double's certificate chains to, our client certificate, and one from a CA the double refuses. */
export const PKI = {
  caFile: new URL('./pki/ca.pem', import.meta.url).pathname,
  certFile: new URL('./pki/client.pem', import.meta.url).pathname,
  keyFile: new URL('./pki/client.key', import.meta.url).pathname,
  rogueCertFile: new URL('./pki/rogue-client.pem', import.meta.url).pathname,
  rogueKeyFile: new URL('./pki/rogue-client.key', import.meta.url).pathname,
};

type Json = Record<string, any>;

export interface DoubleCob {
  txid: string;
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
  revisao: number;
  calendario: { criacao: string; expiracao: number };
  valor: { original: string };
  chave: string;
  devedor?: Json;
  solicitacaoPagador?: string;
  pixCopiaECola: string;
}

export interface DoublePix {
  endToEndId: string;
  txid?: string;
  valor: string;
  chave: string;
  horario: string;
  devolucoes: Json[];
}

export interface DoublePayout {
  idEnvio: string;
  e2eId: string;
  valor: string;
  pagador: Json;
  favorecido: Json;
  horario: { solicitacao: string; liquidacao?: string };
  status: 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';
}

export interface Rejection {
  method: string;
  path: string;
  problems: string[];
}

const alnum = (n: number) => {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(n), (b) => abc[b % abc.length]).join('');
};
/** An end-to-end id as the SPI makes them: E, the ISPB, yyyyMMddHHmm, 11 more characters (32 in all). */
const e2eId = (prefix: 'E' | 'D' = 'E') => `${prefix}12345678${new Date().toISOString().replace(/\D/g, '').slice(0, 12)}${alnum(11)}`;

export class PspDouble {
  readonly clientId = 'ramp-test-client';
  readonly clientSecret = randomBytes(12).toString('hex');
  /** Requests that did not conform: `assertConforming` fails a test on any. */
  readonly rejections: Rejection[] = [];
  /** Every API call received (after TLS and auth), as `METHOD /path`. */
  readonly calls: string[] = [];
  readonly tokensIssued: string[] = [];
  readonly cobs = new Map<string, DoubleCob>();
  readonly pix = new Map<string, DoublePix>();
  readonly payouts = new Map<string, DoublePayout>();
  readonly webhooks = new Map<string, string>();
  /** Callbacks the double sent: where, what, and the status our service answered (0: unreachable). */
  readonly callbacks: { url: string; body: Json; status: number }[] = [];
  dropCallbacks = false;
  /** Seconds a token lives (`expires_in`). */
  tokenTtlS = 3600;
  /** Each answer waits this long first. */
  delayMs = 0;
  /** When set, only the calls (`METHOD /path`, as in `calls`) it matches wait `delayMs`. */
  delayOnly: RegExp | undefined = undefined;
  /** A payout sent is settled at once (REALIZADO) unless this is false: the test then settles it by hand. */
  autoSettlePayouts = false;
  /** Payouts above this amount are refused at the request, as Efí's homologation refuses those above R$ 20.00. */
  refusePayoutsAbove: string | undefined = undefined;
  /** Answer every API call 503 (the TLS handshake and the token still work). */
  unavailable = false;

  private server!: Server;
  private readonly sockets = new Set<Socket>();
  private down = false;
  private readonly tokens = new Map<string, number>();
  private readonly validators: Record<string, ValidateFunction>;
  private port = 0;

  constructor() {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    this.validators = Object.fromEntries(
      Object.entries({ TxId: S.TxId, EndToEndId: S.EndToEndId, DevolucaoId: S.DevolucaoId, Chave: S.Chave, IdEnvio: S.IdEnvio, CobSolicitada: S.CobSolicitada, CobRevisada: S.CobRevisada, DevolucaoSolicitada: S.DevolucaoSolicitada, WebhookSolicitado: S.WebhookSolicitado, PixQuery: S.PixQuery, EnvioPix: S.EnvioPix }).map(([k, v]) => [k, ajv.compile(v)]),
    );
  }

  get url(): string {
    return `https://127.0.0.1:${this.port}/v2`;
  }
  get oauthUrl(): string {
    return `https://127.0.0.1:${this.port}/oauth/token`;
  }

  /** The environment that points the service at this double. */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      RAMP_PIX_PSP_URL: this.url,
      RAMP_PIX_OAUTH_URL: this.oauthUrl,
      RAMP_PIX_CLIENT_ID: this.clientId,
      RAMP_PIX_CLIENT_SECRET: this.clientSecret,
      RAMP_PIX_CERT: PKI.certFile,
      RAMP_PIX_CERT_KEY: PKI.keyFile,
      RAMP_PIX_CA: PKI.caFile,
      RAMP_PIX_KEY: 'a1b2c3d4-0000-4000-8000-00000000beef',
      RAMP_PIX_PAYOUT_PROVIDER: 'efi',
      ...extra,
    };
  }

  async start(): Promise<this> {
    this.server = createServer({ key: pki('server.key'), cert: pki('server.pem'), ca: pki('ca.pem'), requestCert: true, rejectUnauthorized: true }, (req, res) => {
      void this.handle(req, res);
    });
    this.server.on('connection', (s: Socket) => {
      if (this.down) return s.destroy();
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    this.server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Every connection dropped, new ones reset, until `goUp`. */
  goDown(): void {
    this.down = true;
    for (const s of this.sockets) s.destroy();
  }
  goUp(): void {
    this.down = false;
  }

  /** Every token issued so far stops working (the next call gets 401 and must renew). */
  expireTokens(): void {
    this.tokens.clear();
  }

  /** Fails the test if the adapter ever sent a request the standard does not allow. */
  assertConforming(): void {
    if (this.rejections.length) throw new Error(`the PSP double rejected non-conforming requests:\n${this.rejections.map((r) => `${r.method} ${r.path}: ${r.problems.join('; ')}`).join('\n')}`);
  }

  /**
   * A payer pays `txid` (by default exactly what is due). The Pix is received whatever the charge's state (a bank app
   * may have read the BR Code before it expired); the charge is CONCLUIDA only when it was ATIVA and the amount is its own.
   * The webhook is called unless callbacks are dropped. Answers the end-to-end id.
   */
  async pay(txid: string, opts: { valor?: string; callback?: boolean } = {}): Promise<string> {
    const cob = this.cobs.get(txid);
    if (!cob) throw new Error(`no charge ${txid} at the double`);
    const valor = opts.valor ?? cob.valor.original;
    const p: DoublePix = { endToEndId: e2eId(), txid, valor, chave: cob.chave, horario: new Date().toISOString(), devolucoes: [] };
    this.pix.set(p.endToEndId, p);
    if (cob.status === 'ATIVA' && new Decimal(valor).eq(cob.valor.original)) {
      cob.status = 'CONCLUIDA';
      cob.revisao++;
    }
    if (opts.callback !== false) await this.notify(cob.chave, { pix: [this.pixJson(p)] });
    return p.endToEndId;
  }

  /** A Pix into our key that names no charge (someone paid the key by hand). */
  async receiveWithoutCharge(chave: string, valor: string): Promise<string> {
    const p: DoublePix = { endToEndId: e2eId(), valor, chave, horario: new Date().toISOString(), devolucoes: [] };
    this.pix.set(p.endToEndId, p);
    return p.endToEndId;
  }

  /** A payout made from our account outside the service (someone used the PSP's own app): the books know nothing of it. */
  payOutsideTheService(chave: string, valor: string): DoublePayout {
    const idEnvio = `X${alnum(20)}`;
    const p: DoublePayout = { idEnvio, e2eId: e2eId(), valor, pagador: { chave }, favorecido: { chave: 'someone@example.com' }, horario: { solicitacao: new Date().toISOString(), liquidacao: new Date().toISOString() }, status: 'REALIZADO' };
    this.payouts.set(idEnvio, p);
    return p;
  }

  /** The PSP settles (or refuses) a payout; Efí then notifies the payer key's webhook. */
  async settlePayout(idEnvio: string, status: 'REALIZADO' | 'NAO_REALIZADO', opts: { callback?: boolean } = {}): Promise<void> {
    const p = this.payouts.get(idEnvio);
    if (!p) throw new Error(`no payout ${idEnvio} at the double`);
    p.status = status;
    if (status === 'REALIZADO') p.horario.liquidacao = new Date().toISOString();
    // Efí's callback for an envio: the Pix with `gnExtras.idEnvio` and its status.
    if (opts.callback !== false) await this.notify(p.pagador.chave, { pix: [{ endToEndId: p.e2eId, valor: p.valor, chave: p.favorecido.chave, horario: p.horario.solicitacao, status, gnExtras: { idEnvio: p.idEnvio }, tipo: 'SOLICITACAO' }] });
  }

  /** The PSP settles (or refuses) a refund. */
  settleRefund(e2eid: string, id: string, status: 'DEVOLVIDO' | 'NAO_REALIZADO'): void {
    const d = this.pix.get(e2eid)?.devolucoes.find((x) => x.id === id);
    if (!d) throw new Error(`no refund ${id} of ${e2eid} at the double`);
    d.status = status;
    if (status === 'DEVOLVIDO') d.horario.liquidacao = new Date().toISOString();
  }

  /** POSTs `{webhookUrl}/pix` as the PSP would (our service must treat it as a hint only). */
  async notify(chave: string, body: Json): Promise<number> {
    const base = this.webhooks.get(chave);
    if (!base || this.dropCallbacks) return 0;
    const url = `${base}/pix`;
    let status = 0;
    try {
      status = (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) })).status;
    } catch {
      status = 0;
    }
    this.callbacks.push({ url, body, status });
    return status;
  }

  // ---------------------------------------------------------------------------------------------------------

  private pixJson(p: DoublePix): Json {
    return { endToEndId: p.endToEndId, ...(p.txid ? { txid: p.txid } : {}), valor: p.valor, chave: p.chave, horario: p.horario, ...(p.devolucoes.length ? { devolucoes: p.devolucoes } : {}) };
  }

  /** A charge as the PSP answers it (`CobGerada`). */
  cobJson(c: DoubleCob): Json {
    const pix = [...this.pix.values()].filter((p) => p.txid === c.txid).map((p) => this.pixJson(p));
    return {
      calendario: c.calendario,
      txid: c.txid,
      revisao: c.revisao,
      loc: { id: 1, location: `127.0.0.1/qr/v2/${c.txid}`, tipoCob: 'cob', criacao: c.calendario.criacao },
      location: `127.0.0.1/qr/v2/${c.txid}`,
      status: c.status,
      ...(c.devedor ? { devedor: c.devedor } : {}),
      valor: c.valor,
      chave: c.chave,
      ...(c.solicitacaoPagador ? { solicitacaoPagador: c.solicitacaoPagador } : {}),
      pixCopiaECola: c.pixCopiaECola,
      ...(pix.length ? { pix } : {}),
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    // Slow, not broken: the request is carried out after the delay even if the client gave up waiting (as a real PSP
    // would), only its answer is lost.
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    if (this.delayMs && (!this.delayOnly || this.delayOnly.test(`${req.method} ${url.pathname.replace(/^\/v2/, '')}`))) await new Promise((r) => setTimeout(r, this.delayMs));
    const send = (status: number, body?: unknown, type = 'application/json') => {
      if (res.destroyed) return;
      res.writeHead(status, body === undefined ? {} : { 'content-type': type });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const problem = (status: number, name: string, title: string, detail: string, violacoes?: { razao: string; propriedade: string }[]) =>
      send(status, { type: `https://pix.bcb.gov.br/api/v2/error/${name}`, title, status, detail, ...(violacoes ? { violacoes } : {}) }, 'application/problem+json');

    if (url.pathname === '/oauth/token') return this.token(req, raw, send);

    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    const until = this.tokens.get(token);
    if (until === undefined || until < Date.now()) return problem(401, 'AcessoNegado', 'Não Autorizado', 'Token ausente, inválido ou expirado.');
    if (!url.pathname.startsWith('/v2/')) return problem(404, 'NaoEncontrado', 'Não Encontrado', 'Recurso inexistente.');
    const path = url.pathname.slice(3);
    const method = req.method ?? 'GET';
    this.calls.push(`${method} ${path}`);
    if (this.unavailable) return problem(503, 'ServicoIndisponivel', 'Serviço Indisponível', 'Tente novamente mais tarde.');

    // Validation: path parameters, query and body against the standard's schemas; a failure is recorded and answered 400.
    const problems: string[] = [];
    const check = (schema: string, value: unknown, where: string) => {
      const v = this.validators[schema]!;
      if (!v(value)) problems.push(...(v.errors ?? []).map((e) => `${where}${e.instancePath} ${e.message}`));
    };
    let body: unknown;
    if (raw) {
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) problems.push(`content-type ${req.headers['content-type']} is not application/json`);
      try {
        body = JSON.parse(raw);
      } catch {
        problems.push('body is not JSON');
      }
    }
    const query = Object.fromEntries(url.searchParams);
    const seg = path.split('/').slice(1).map(decodeURIComponent);
    const reject = () => {
      this.rejections.push({ method, path: `${path}${url.search}`, problems });
      return problem(400, 'RequisicaoInvalida', 'Requisição inválida', 'A requisição não respeita o schema.', problems.map((p) => ({ razao: p, propriedade: p.split(' ')[0]! })));
    };
    const noQuery = () => Object.keys(query).length === 0 || problems.push(`unexpected query ${url.search}`);
    const noBody = () => raw === '' || problems.push('a body where the standard has none');

    // PUT/GET/PATCH /cob/{txid}
    if (seg[0] === 'cob' && seg.length === 2) {
      const txid = seg[1]!;
      check('TxId', txid, 'txid');
      noQuery();
      if (method === 'PUT') {
        check('CobSolicitada', body, 'body');
        if (problems.length) return reject();
        if (this.cobs.has(txid)) return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', `A cobrança ${txid} já existe.`, [{ razao: 'txid já utilizado', propriedade: 'txid' }]);
        const b = body as Json;
        const cob: DoubleCob = {
          txid,
          status: 'ATIVA',
          revisao: 0,
          calendario: { criacao: new Date().toISOString(), expiracao: b.calendario?.expiracao ?? 86_400 },
          valor: { original: b.valor.original },
          chave: b.chave,
          ...(b.devedor ? { devedor: b.devedor } : {}),
          ...(b.solicitacaoPagador ? { solicitacaoPagador: b.solicitacaoPagador } : {}),
          pixCopiaECola: `00020101021226830014br.gov.bcb.pix2561127.0.0.1/qr/v2/${txid}520400005303986540${b.valor.original.length}${b.valor.original}5802BR5913Ramp Test PSP6009SAO PAULO62070503***6304ABCD`,
        };
        this.cobs.set(txid, cob);
        return send(201, this.cobJson(cob));
      }
      if (method === 'GET') {
        noBody();
        if (problems.length) return reject();
        const cob = this.cobs.get(txid);
        return cob ? send(200, this.cobJson(cob)) : problem(404, 'NaoEncontrado', 'Não Encontrado', `Cobrança ${txid} não encontrada.`);
      }
      if (method === 'PATCH') {
        check('CobRevisada', body, 'body');
        if (problems.length) return reject();
        const cob = this.cobs.get(txid);
        if (!cob) return problem(404, 'NaoEncontrado', 'Não Encontrado', `Cobrança ${txid} não encontrada.`);
        if (cob.status !== 'ATIVA') return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', `A cobrança ${txid} está ${cob.status}.`);
        if ((body as Json).status) cob.status = (body as Json).status;
        cob.revisao++;
        return send(200, this.cobJson(cob));
      }
    }
    // GET /pix?inicio&fim
    if (seg[0] === 'pix' && seg.length === 1 && method === 'GET') {
      check('PixQuery', query, 'query');
      noBody();
      if (problems.length) return reject();
      const from = Date.parse(query.inicio!);
      const to = Date.parse(query.fim!);
      const all = [...this.pix.values()].filter((p) => Date.parse(p.horario) >= from && Date.parse(p.horario) <= to);
      const size = Number(query['paginacao.itensPorPagina'] ?? 100);
      const page = Number(query['paginacao.paginaAtual'] ?? 0);
      const pages = Math.max(1, Math.ceil(all.length / size));
      return send(200, { parametros: { inicio: query.inicio, fim: query.fim, paginacao: { paginaAtual: page, itensPorPagina: size, quantidadeDePaginas: pages, quantidadeTotalDeItens: all.length } }, pix: all.slice(page * size, (page + 1) * size).map((p) => this.pixJson(p)) });
    }
    // GET /pix/{e2eid}
    if (seg[0] === 'pix' && seg.length === 2 && method === 'GET') {
      check('EndToEndId', seg[1], 'e2eid');
      noQuery();
      noBody();
      if (problems.length) return reject();
      const p = this.pix.get(seg[1]!);
      return p ? send(200, this.pixJson(p)) : problem(404, 'NaoEncontrado', 'Não Encontrado', `Pix ${seg[1]} não encontrado.`);
    }
    // PUT/GET /pix/{e2eid}/devolucao/{id}
    if (seg[0] === 'pix' && seg.length === 4 && seg[2] === 'devolucao') {
      const [, e2eid, , id] = seg as [string, string, string, string];
      check('EndToEndId', e2eid, 'e2eid');
      check('DevolucaoId', id, 'id');
      noQuery();
      if (method === 'PUT') check('DevolucaoSolicitada', body, 'body');
      else noBody();
      if (problems.length) return reject();
      const p = this.pix.get(e2eid);
      if (!p) return problem(404, 'NaoEncontrado', 'Não Encontrado', `Pix ${e2eid} não encontrado.`);
      const existing = p.devolucoes.find((d) => d.id === id);
      if (method === 'GET') return existing ? send(200, existing) : problem(404, 'NaoEncontrado', 'Não Encontrado', `Devolução ${id} não encontrada.`);
      if (method === 'PUT') {
        // The same id again is the same refund (BACEN: the id identifies the devolução); never a second one.
        if (existing) return send(201, existing);
        const valor = (body as Json).valor as string;
        const refunded = p.devolucoes.filter((d) => d.status !== 'NAO_REALIZADO').reduce((s, d) => s.plus(d.valor), new Decimal(0));
        if (refunded.plus(valor).gt(p.valor)) return problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', 'O valor excede o valor do Pix.', [{ razao: 'valor excede o disponível', propriedade: 'valor' }]);
        const d = { id, rtrId: e2eId('D'), valor, natureza: (body as Json).natureza ?? 'ORIGINAL', ...((body as Json).descricao ? { descricao: (body as Json).descricao } : {}), horario: { solicitacao: new Date().toISOString() } as Json, status: 'EM_PROCESSAMENTO' };
        p.devolucoes.push(d);
        return send(201, d);
      }
    }
    // PUT /webhook/{chave}
    if (seg[0] === 'webhook' && seg.length === 2 && method === 'PUT') {
      check('Chave', seg[1], 'chave');
      check('WebhookSolicitado', body, 'body');
      noQuery();
      if (problems.length) return reject();
      this.webhooks.set(seg[1]!, (body as Json).webhookUrl);
      return send(200);
    }
    // Efí: PUT /gn/pix/{idEnvio}
    if (seg[0] === 'gn' && seg[1] === 'pix' && seg.length === 3 && method === 'PUT') {
      const idEnvio = seg[2]!;
      check('IdEnvio', idEnvio, 'idEnvio');
      check('EnvioPix', body, 'body');
      noQuery();
      if (problems.length) return reject();
      const b = body as Json;
      const existing = this.payouts.get(idEnvio);
      // Efí refuses an idEnvio used before: a retry learns the outcome by reading it back, never by paying again.
      if (existing) return send(409, { nome: 'id_envio_duplicado', mensagem: `O idEnvio ${idEnvio} já foi utilizado.` });
      if (!this.webhooks.has(b.pagador.chave)) return send(400, { nome: 'chave_sem_webhook', mensagem: 'A chave do pagador precisa de um webhook associado.' });
      if (this.refusePayoutsAbove && new Decimal(b.valor).gt(this.refusePayoutsAbove)) return send(400, { nome: 'valor_invalido', mensagem: 'Envio de Pix recusado.' });
      const p: DoublePayout = { idEnvio, e2eId: e2eId(), valor: b.valor, pagador: b.pagador, favorecido: b.favorecido, horario: { solicitacao: new Date().toISOString() }, status: 'EM_PROCESSAMENTO' };
      this.payouts.set(idEnvio, p);
      const answer = { idEnvio, e2eId: p.e2eId, valor: p.valor, horario: { solicitacao: p.horario.solicitacao }, status: p.status };
      if (this.autoSettlePayouts) setImmediate(() => void this.settlePayout(idEnvio, 'REALIZADO'));
      return send(201, answer);
    }
    // Efí: GET /gn/pix/enviados?inicio&fim (the same query as the API Pix's GET /pix, without the payer filters)
    if (seg[0] === 'gn' && seg[1] === 'pix' && seg[2] === 'enviados' && seg.length === 3 && method === 'GET') {
      check('PixQuery', query, 'query');
      for (const k of ['txid', 'txIdPresente', 'devolucaoPresente', 'cpf', 'cnpj']) if (k in query) problems.push(`query ${k} is not a filter of the list of Pix sent`);
      noBody();
      if (problems.length) return reject();
      const from = Date.parse(query.inicio!);
      const to = Date.parse(query.fim!);
      const all = [...this.payouts.values()].filter((p) => Date.parse(p.horario.solicitacao) >= from && Date.parse(p.horario.solicitacao) <= to);
      const size = Number(query['paginacao.itensPorPagina'] ?? 100);
      const page = Number(query['paginacao.paginaAtual'] ?? 0);
      return send(200, {
        parametros: { inicio: query.inicio, fim: query.fim, paginacao: { paginaAtual: page, itensPorPagina: size, quantidadeDePaginas: Math.max(1, Math.ceil(all.length / size)), quantidadeTotalDeItens: all.length } },
        pix: all.slice(page * size, (page + 1) * size).map((p) => ({ endToEndId: p.e2eId, idEnvio: p.idEnvio, valor: p.valor, chave: p.pagador.chave, status: p.status, horario: p.horario, favorecido: { chave: p.favorecido.chave } })),
      });
    }
    // Efí: GET /gn/pix/enviados/id-envio/{idEnvio}
    if (seg[0] === 'gn' && seg[1] === 'pix' && seg[2] === 'enviados' && seg[3] === 'id-envio' && seg.length === 5 && method === 'GET') {
      check('IdEnvio', seg[4], 'idEnvio');
      noQuery();
      noBody();
      if (problems.length) return reject();
      const p = this.payouts.get(seg[4]!);
      if (!p) return send(404, { nome: 'pix_nao_encontrado', mensagem: 'Nenhum Pix encontrado para o idEnvio informado.' });
      return send(200, { endToEndId: p.e2eId, idEnvio: p.idEnvio, valor: p.valor, chave: p.pagador.chave, status: p.status, ...(p.pagador.infoPagador ? { infoPagador: p.pagador.infoPagador } : {}), horario: p.horario, favorecido: { chave: p.favorecido.chave } });
    }
    problems.push(`no such operation in the standard: ${method} ${path}`);
    return reject();
  }

  private token(req: IncomingMessage, raw: string, send: (status: number, body?: unknown) => void): void {
    const problems: string[] = [];
    if (req.method !== 'POST') problems.push(`token: ${req.method}, not POST`);
    if (!String(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) problems.push('token: body not form-encoded (RFC 6749 §4.4.2)');
    if (new URLSearchParams(raw).get('grant_type') !== 'client_credentials') problems.push('token: grant_type is not client_credentials');
    if (problems.length) {
      this.rejections.push({ method: req.method ?? '', path: '/oauth/token', problems });
      return send(400, { error: 'invalid_request' });
    }
    const expected = `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return send(401, { error: 'invalid_client' });
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, Date.now() + this.tokenTtlS * 1000);
    this.tokensIssued.push(token);
    send(200, { access_token: token, token_type: 'Bearer', expires_in: this.tokenTtlS, scope: 'cob.write cob.read pix.write pix.read webhook.write webhook.read pix.send gn.pix.send.read' });
  }
}
