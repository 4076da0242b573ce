// A tiny EMV® BR Code (PIX "copia e cola") builder for mocks: the same TLV fields and CRC16 a bank app reads, no dependency.

/** `id` + two-digit length + value: the TLV unit of EMV merchant-presented QR codes. */
function field(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over the payload up to and including `6304`, as 4 upper-case hex digits. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(payload)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export interface BrCodeFields {
  /** The receiver's PIX key (an EVP here). */
  key: string;
  /** BRL, 2 decimals; absent for an open amount. */
  amount?: string;
  merchantName: string;
  merchantCity: string;
  /** Up to 25 alphanumerics; `***` when none. */
  txid?: string;
}

/** A static BR Code: payload format, GUI `br.gov.bcb.pix` + key, MCC 0000, BRL (986), amount, BR, name, city, txid, CRC. */
export function buildBrCode(f: BrCodeFields): string {
  const payload =
    field('00', '01') +
    field('26', field('00', 'br.gov.bcb.pix') + field('01', f.key)) +
    field('52', '0000') +
    field('53', '986') +
    (f.amount ? field('54', f.amount) : '') +
    field('58', 'BR') +
    field('59', f.merchantName.slice(0, 25)) +
    field('60', f.merchantCity.slice(0, 15)) +
    field('62', field('05', f.txid ?? '***')) +
    '6304';
  return payload + crc16(payload);
}

/** The EMV example from the BR Code manual (open amount): handy where a fixed string is wanted. */
export const EXAMPLE_BR_CODE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
