// JSON Schemas of the requests the PSP double accepts, transcribed from BACEN's API Pix 2.9.0 document (components named
// beside each; the document itself is not in the repository) and, for the envio de Pix, from Efí's published page. Two
// deliberate readings of the document: its patterns are unanchored (`[a-zA-Z0-9]{26,35}` would match any string holding
// 26 such characters) and are anchored here as their descriptions intend; its CPF pattern is written `/^\d{11}$/` with
// the slashes inside the string, which taken literally no CPF matches, so the intended `^\d{11}$` is used.
// Every request object is closed (`additionalProperties: false`) where the document lists the object's properties: a
// field the standard does not have is a bug in the adapter, not something a PSP would quietly ignore.

const decimal = { type: 'string', pattern: '^\\d{1,10}\\.\\d{2}$' } as const;

/** components.schemas.TxId */
export const TxId = { type: 'string', pattern: '^[a-zA-Z0-9]{26,35}$' } as const;
/** components.schemas.EndToEndId */
export const EndToEndId = { type: 'string', pattern: '^[a-zA-Z0-9]{32}$', minLength: 32, maxLength: 32 } as const;
/** components.schemas.DevolucaoId */
export const DevolucaoId = { type: 'string', pattern: '^[a-zA-Z0-9]{1,35}$' } as const;
/** paths./webhook/{chave}.parameters.chave ("Chave DICT do recebedor") */
export const Chave = { type: 'string', minLength: 1, maxLength: 77 } as const;
/** Efí envio de Pix: idEnvio, 1–35 letters and digits. */
export const IdEnvio = { type: 'string', pattern: '^[a-zA-Z0-9]{1,35}$' } as const;

/** components.schemas.PessoaFisica / PessoaJuridica (the `devedor` of a charge). */
const Devedor = {
  oneOf: [
    { type: 'object', required: ['cpf', 'nome'], additionalProperties: false, properties: { cpf: { type: 'string', pattern: '^\\d{11}$' }, nome: { type: 'string', maxLength: 200 } } },
    { type: 'object', required: ['cnpj', 'nome'], additionalProperties: false, properties: { cnpj: { type: 'string', pattern: '^[0-9A-Z]{14}$' }, nome: { type: 'string', maxLength: 200 } } },
  ],
} as const;

/** components.schemas.CobBase: chave, solicitacaoPagador, infoAdicionais. */
const cobBase = {
  chave: { type: 'string', minLength: 1, maxLength: 77 },
  solicitacaoPagador: { type: 'string', maxLength: 140 },
  infoAdicionais: { type: 'array', maxItems: 50, items: { type: 'object', required: ['nome', 'valor'], additionalProperties: false, properties: { nome: { type: 'string', maxLength: 50 }, valor: { type: 'string', maxLength: 200 } } } },
} as const;

/** components.schemas.CobExpiracao */
const calendario = { type: 'object', additionalProperties: false, properties: { expiracao: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } } as const;

/** components.schemas.CobValor (no `retirada`: saque and troco are not for this service). */
const valorCob = { type: 'object', additionalProperties: false, properties: { original: decimal, modalidadeAlteracao: { type: 'integer', minimum: 0, maximum: 1 } } } as const;

/** components.requestBodies.CobBody → components.schemas.CobSolicitada (PUT /cob/{txid}). */
export const CobSolicitada = {
  type: 'object',
  required: ['valor', 'chave', 'calendario'],
  additionalProperties: false,
  properties: {
    calendario,
    devedor: Devedor,
    loc: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
    valor: { ...valorCob, required: ['original'] },
    ...cobBase,
  },
} as const;

/** components.requestBodies.CobBodyRevisada → components.schemas.CobRevisada (PATCH /cob/{txid}). */
export const CobRevisada = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    calendario,
    devedor: Devedor,
    loc: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
    status: { type: 'string', enum: ['REMOVIDA_PELO_USUARIO_RECEBEDOR'] },
    valor: valorCob,
    ...cobBase,
  },
} as const;

/** components.requestBodies.DevolucaoBody → components.schemas.DevolucaoSolicitada (PUT /pix/{e2eid}/devolucao/{id}). */
export const DevolucaoSolicitada = {
  type: 'object',
  required: ['valor'],
  additionalProperties: false,
  properties: { valor: decimal, natureza: { type: 'string', enum: ['ORIGINAL', 'RETIRADA'] }, descricao: { type: 'string', maxLength: 140 } },
} as const;

/** components.requestBodies.WebhookConfigBody → components.schemas.WebhookSolicitado (PUT /webhook/{chave}). */
export const WebhookSolicitado = {
  type: 'object',
  required: ['webhookUrl'],
  additionalProperties: false,
  properties: { webhookUrl: { type: 'string', format: 'uri', pattern: '^https?://' } },
} as const;

/** paths./pix.get.parameters: inicio and fim (date-time) required; txid, txIdPresente, devolucaoPresente, cpf, cnpj, paginacao.* optional. */
export const PixQuery = {
  type: 'object',
  required: ['inicio', 'fim'],
  additionalProperties: false,
  properties: {
    inicio: { type: 'string', format: 'date-time' },
    fim: { type: 'string', format: 'date-time' },
    txid: { type: 'string', pattern: '^[a-zA-Z0-9]{1,35}$' },
    txIdPresente: { type: 'string', enum: ['true', 'false'] },
    devolucaoPresente: { type: 'string', enum: ['true', 'false'] },
    cpf: { type: 'string', pattern: '^\\d{11}$' },
    cnpj: { type: 'string', pattern: '^[0-9A-Z]{14}$' },
    // components.parameters.paginaAtual / itensPorPagina
    'paginacao.paginaAtual': { type: 'string', pattern: '^\\d{1,9}$' },
    'paginacao.itensPorPagina': { type: 'string', pattern: '^(?:[1-9]\\d{0,2}|1000)$' },
  },
  not: { required: ['cpf', 'cnpj'] },
} as const;

/** Efí envio de Pix request (PUT /v2/gn/pix/{idEnvio}): valor, pagador {chave, infoPagador?}, favorecido {chave}. */
export const EnvioPix = {
  type: 'object',
  required: ['valor', 'pagador', 'favorecido'],
  additionalProperties: false,
  properties: {
    valor: decimal,
    pagador: { type: 'object', required: ['chave'], additionalProperties: false, properties: { chave: { type: 'string', minLength: 1, maxLength: 77 }, infoPagador: { type: 'string', maxLength: 140 } } },
    favorecido: { type: 'object', required: ['chave'], additionalProperties: false, properties: { chave: { type: 'string', minLength: 1, maxLength: 77 } } },
  },
} as const;

/** A request without a body must carry none. */
export const NoBody = { not: {} } as const;
