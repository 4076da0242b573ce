// Customer wallets: addresses derived from the service's BIP-32 seed per customer and chain, explorer links, and address validation for each chain.
import { ECDH } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { unreachable } from './money';

import { BLOCKCHAINS, type Blockchain } from '../../src/contract/blockchains';

export { BLOCKCHAINS, type Blockchain, isBlockchain } from '../../src/contract/blockchains';

/** Address formats: the three EVM chains share one (and one key per customer); TRON has its own. */
export type AddressFamily = 'EVM' | 'TRON';

export function familyOf(blockchain: Blockchain): AddressFamily {
  switch (blockchain) {
    case 'ETHEREUM':
    case 'BASE':
    case 'POLYGON':
      return 'EVM';
    case 'TRON':
      return 'TRON';
    default:
      return unreachable(blockchain);
  }
}

export interface Wallet {
  blockchain: Blockchain;
  address: string;
  blockExplorerUrl: string;
  isDefault: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Derivation

/**
 * BIP-32 needs 16 to 64 bytes of seed. Parsed here as well as in config so that an odd number of hex digits
 * (which a regex on length alone lets through) is refused with a clear message instead of deriving from a
 * silently different seed.
 */
export function parseWalletSeed(seedHex: string): Uint8Array {
  if (!/^(?:[0-9a-fA-F]{2}){16,64}$/.test(seedHex)) throw new Error('RAMP_WALLET_SEED must be 16 to 64 bytes written as hex (32 to 128 hex digits, an even number)');
  return hexToBytes(seedHex.toLowerCase());
}

/** SLIP-44 coin types: what wallets and recovery tools use for these address formats. */
function coinType(family: AddressFamily): number {
  switch (family) {
    case 'EVM':
      return 60;
    case 'TRON':
      return 195;
    default:
      return unreachable(family);
  }
}

/**
 * The derivation path of a customer's key: `m/44'/{coin}'/{a}'/0/{b}`, with coin 60 for the EVM chains
 * (so ETHEREUM, BASE and POLYGON share one address, as wallets do) and 195 for TRON, and (a, b) the first
 * 62 bits of sha256(lower-cased customer id) split into two 31-bit indices (a hardened, b not, as BIP-44's
 * account/index levels are).
 *
 * Why this shape: it is BIP-44's own (purpose / coin / account / change / index), so an operator can recover
 * any customer's key from the seed with standard tools by typing account = a and index = b, which
 * `customerDerivationPath` prints. Why a hash: customer ids are UUIDs, larger than BIP-32's 31-bit
 * indices; 62 bits of sha256 collide with probability about n²/2⁶³ — 1 in 10 million at a million customers,
 * 1 in 1000 at a hundred million — which is "never in practice"; a unique index on addresses in the store
 * would turn the rest into an error rather than a shared wallet. Lower-casing makes the same UUID in either case give the same wallet.
 */
export function customerDerivationPath(customerId: string, blockchain: Blockchain): string {
  if (customerId.length === 0) throw new Error('customer id must not be empty');
  const digest = sha256(utf8ToBytes(customerId.toLowerCase()));
  const view = new DataView(digest.buffer, digest.byteOffset, digest.byteLength);
  const first = view.getUint32(0); // bits 0–31
  const second = view.getUint32(4); // bits 32–63
  const account = first >>> 1; // bits 0–30
  const index = ((first & 1) << 30) | (second >>> 2); // bits 31–61
  return `m/44'/${coinType(familyOf(blockchain))}'/${account}'/0/${index}`;
}

/** The address at any path of the seed's tree (the tests check published vectors through this). */
export function addressAtPath(seedHex: string, path: string, blockchain: Blockchain): string {
  const key = HDKey.fromMasterSeed(parseWalletSeed(seedHex)).derive(path);
  if (!key.publicKey) throw new Error(`no public key at ${path}`);
  return addressFromPublicKey(key.publicKey, blockchain);
}

export const deriveAddress = (seedHex: string, customerId: string, blockchain: Blockchain): string =>
  addressAtPath(seedHex, customerDerivationPath(customerId, blockchain), blockchain);

/**
 * One wallet per blockchain for a customer, in the order of `BLOCKCHAINS`. Deterministic: the same seed and
 * customer always give the same addresses, so nothing but the seed needs backing up.
 */
export function deriveWallets(opts: { seedHex: string; customerId: string; sandbox: boolean; defaultBlockchain: Blockchain }): Wallet[] {
  const root = HDKey.fromMasterSeed(parseWalletSeed(opts.seedHex));
  const byFamily = new Map<AddressFamily, Uint8Array>();
  return BLOCKCHAINS.map((blockchain) => {
    const family = familyOf(blockchain);
    let publicKey = byFamily.get(family);
    if (!publicKey) {
      const derived = root.derive(customerDerivationPath(opts.customerId, blockchain)).publicKey;
      if (!derived) throw new Error('derivation produced no public key');
      publicKey = derived;
      byFamily.set(family, publicKey);
    }
    const address = addressFromPublicKey(publicKey, blockchain);
    return { blockchain, address, blockExplorerUrl: addressExplorerUrl(blockchain, address, opts.sandbox), isDefault: blockchain === opts.defaultBlockchain };
  });
}

export function addressFromPublicKey(publicKey: Uint8Array, blockchain: Blockchain): string {
  const family = familyOf(blockchain);
  switch (family) {
    case 'EVM':
      return evmAddressFromPublicKey(publicKey);
    case 'TRON':
      return tronAddressFromPublicKey(publicKey);
    default:
      return unreachable(family);
  }
}

/**
 * Both formats hash the 64-byte uncompressed point (x ‖ y, without the 0x04 prefix); BIP-32 hands out the
 * 33-byte compressed form. Node's OpenSSL decompresses it — a well-kept secp256k1 implementation already in
 * the runtime, rather than a dependency we did not declare.
 */
function uncompressedXY(publicKey: Uint8Array): Uint8Array {
  const full = ECDH.convertKey(publicKey, 'secp256k1', undefined, undefined, 'uncompressed');
  if (typeof full === 'string' || full.length !== 65 || full[0] !== 0x04) throw new Error('not a secp256k1 public key');
  return new Uint8Array(full.subarray(1));
}

/** The last 20 bytes of keccak256 of the uncompressed public key: the account both formats encode. */
const accountId = (publicKey: Uint8Array): Uint8Array => keccak_256(uncompressedXY(publicKey)).subarray(12);

export const evmAddressFromPublicKey = (publicKey: Uint8Array): string => toChecksumAddress(`0x${bytesToHex(accountId(publicKey))}`);

const base58check = createBase58check(sha256);
const TRON_PREFIX = 0x41;

/** TRON: base58check of 0x41 ‖ account id — 25 bytes with the checksum, 34 characters starting with "T". */
export function tronAddressFromPublicKey(publicKey: Uint8Array): string {
  const payload = new Uint8Array(21);
  payload[0] = TRON_PREFIX;
  payload.set(accountId(publicKey), 1);
  return base58check.encode(payload);
}

/** EIP-55: a hex letter is upper-cased when the matching nibble of keccak256(lower-case hex) is ≥ 8. */
export function toChecksumAddress(address: string): string {
  if (!EVM_HEX.test(address)) throw new Error('not a 0x-prefixed 20-byte hex address');
  const lower = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i] ?? '';
    out += parseInt(hash[i] ?? '0', 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Validation

const EVM_HEX = /^0x[0-9a-fA-F]{40}$/;

/**
 * Whether `address` can receive funds on `blockchain` (partner-fee wallets, transfer destinations).
 * EVM: 0x + 40 hex; all-lower or all-upper is accepted (no checksum to check), mixed case must be the EIP-55
 * checksum — a mistyped character then fails instead of sending funds astray. TRON: base58check that
 * decodes to 21 bytes starting with 0x41. On both, the all-zero address is refused: funds sent there are
 * burnt, and it is what an unset field in a partner's code turns into.
 */
export function isValidAddress(blockchain: Blockchain, address: unknown): boolean {
  if (typeof address !== 'string') return false;
  const family = familyOf(blockchain);
  switch (family) {
    case 'EVM': {
      if (!EVM_HEX.test(address)) return false;
      const body = address.slice(2);
      if (/^0+$/.test(body)) return false;
      if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
      return toChecksumAddress(address) === address;
    }
    case 'TRON': {
      let payload: Uint8Array;
      try {
        payload = base58check.decode(address);
      } catch {
        return false;
      }
      return payload.length === 21 && payload[0] === TRON_PREFIX && payload.subarray(1).some((b) => b !== 0);
    }
    default:
      return unreachable(family);
  }
}

/**
 * The form an address is stored in (wallets keep EVM addresses EIP-55 checksummed): a valid all-lower or all-upper EVM
 * address is the same account as its checksummed form, so lookups of "is this one of ours" compare this.
 */
export function canonicalAddress(blockchain: Blockchain, address: string): string {
  return familyOf(blockchain) === 'EVM' ? toChecksumAddress(address) : address;
}

/** Why an address was refused, for a problem detail's `errors[].message`. */
export function addressProblem(blockchain: Blockchain, address: unknown): string | null {
  if (isValidAddress(blockchain, address)) return null;
  return familyOf(blockchain) === 'EVM'
    ? `not a valid ${blockchain} address: expected 0x and 40 hex digits, with a correct EIP-55 checksum if mixed-case, and not the zero address`
    : 'not a valid TRON address: expected a base58check address starting with T (version byte 0x41), and not the zero address';
}

// ---------------------------------------------------------------------------------------------------------
// Explorers

/** Block explorers: the public testnets in sandbox (Sepolia, Base Sepolia, Amoy, Nile), mainnet in production. */
function explorerOrigin(blockchain: Blockchain, sandbox: boolean): string {
  switch (blockchain) {
    case 'ETHEREUM':
      return sandbox ? 'https://sepolia.etherscan.io' : 'https://etherscan.io';
    case 'BASE':
      return sandbox ? 'https://sepolia.basescan.org' : 'https://basescan.org';
    case 'POLYGON':
      return sandbox ? 'https://amoy.polygonscan.com' : 'https://polygonscan.com';
    case 'TRON':
      return sandbox ? 'https://nile.tronscan.org' : 'https://tronscan.org';
    default:
      return unreachable(blockchain);
  }
}

export function addressExplorerUrl(blockchain: Blockchain, address: string, sandbox: boolean): string {
  const origin = explorerOrigin(blockchain, sandbox);
  // Tronscan is a single-page app that routes on the fragment.
  return familyOf(blockchain) === 'TRON' ? `${origin}/#/address/${address}` : `${origin}/address/${address}`;
}

export function transactionExplorerUrl(blockchain: Blockchain, transactionHash: string, sandbox: boolean): string {
  const origin = explorerOrigin(blockchain, sandbox);
  return familyOf(blockchain) === 'TRON' ? `${origin}/#/transaction/${transactionHash}` : `${origin}/tx/${transactionHash}`;
}
