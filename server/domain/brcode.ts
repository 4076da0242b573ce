// PIX BR Codes: the EMV merchant-presented QR payload (GUI br.gov.bcb.pix, amount, merchant name and city, txid, CRC16-CCITT) a bank app reads.

/** One EMV TLV field: two-digit id, two-digit length, value. */
const field = (id: string, value: string): string => {
  if (value.length > 99) throw new Error(`EMV field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
};

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF), as the BR Code manual requires, upper-case hex. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(payload)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Merchant name and city are plain ASCII in the EMV profile; accents are dropped, not mangled. */
const ascii = (s: string, max: number): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, max);

export interface BrCodeInput {
  /** The receiver's PIX key (an EVP, CNPJ, email or phone of the merchant). */
  pixKey: string;
  /** BRL, two decimals, as a string. */
  amount: string;
  merchantName: string;
  merchantCity: string;
  /** Reconciles the payment with the transaction: 1–25 letters and digits. */
  txid: string;
  description?: string;
}

export function brCode(i: BrCodeInput): string {
  if (!/^\d{1,10}\.\d{2}$/.test(i.amount)) throw new Error(`BR Code amount must have two decimals (got ${i.amount})`);
  if (!/^[A-Za-z0-9]{1,25}$/.test(i.txid)) throw new Error('BR Code txid must be 1–25 letters and digits');
  const account = field('00', 'br.gov.bcb.pix') + field('01', i.pixKey) + (i.description ? field('02', ascii(i.description, 40)) : '');
  const payload =
    field('00', '01') +
    field('01', '12') + // single use: this code pays this transaction once
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    field('54', i.amount) +
    field('58', 'BR') +
    field('59', ascii(i.merchantName, 25)) +
    field('60', ascii(i.merchantCity, 15)) +
    field('62', field('05', i.txid)) +
    '6304';
  return payload + crc16(payload);
}
