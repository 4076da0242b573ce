// Destination addresses checked in the browser as the server checks them: EIP-55 on the EVM chains, base58check on TRON.
// A typo caught here never reaches a confirmation step; the server checks again and has the last word.
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import type { Blockchain } from '../../contract/blockchains';

export type AddressFamily = 'EVM' | 'TRON';
/** What is wrong with an address: nothing typed, not this chain's shape, or the right shape with a wrong checksum (a typo). */
export type AddressProblem = 'required' | 'format' | 'checksum';

export const familyOf = (blockchain: Blockchain): AddressFamily => (blockchain === 'TRON' ? 'TRON' : 'EVM');

const EVM_HEX = /^0x[0-9a-fA-F]{40}$/;
const TRON_SHAPE = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const TRON_PREFIX = 0x41;
const base58check = createBase58check(sha256);

/** The EIP-55 form of a 0x address: a letter is upper case where the keccak-256 of the lower-case hex has a nibble ≥ 8. */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) out += parseInt(hash[i]!, 16) >= 8 ? lower[i]!.toUpperCase() : lower[i]!;
  return out;
}

export function addressProblem(blockchain: Blockchain, raw: string): AddressProblem | undefined {
  const address = raw.trim();
  if (!address) return 'required';
  if (familyOf(blockchain) === 'EVM') {
    if (!EVM_HEX.test(address) || /^0x0+$/.test(address)) return 'format';
    const body = address.slice(2);
    // One case throughout carries no checksum (EIP-55 is optional); mixed case must match it.
    if (body === body.toLowerCase() || body === body.toUpperCase()) return undefined;
    return toChecksumAddress(address) === address ? undefined : 'checksum';
  }
  if (!TRON_SHAPE.test(address)) return 'format';
  let payload: Uint8Array;
  try {
    payload = base58check.decode(address);
  } catch {
    return 'checksum';
  }
  return payload.length === 21 && payload[0] === TRON_PREFIX && payload.subarray(1).some((b) => b !== 0) ? undefined : 'format';
}

/** The same account, whatever the case of an EVM address (for "is this my own wallet"). */
export const sameAddress = (blockchain: Blockchain, a: string, b: string): boolean =>
  familyOf(blockchain) === 'EVM' ? a.trim().toLowerCase() === b.trim().toLowerCase() : a.trim() === b.trim();
