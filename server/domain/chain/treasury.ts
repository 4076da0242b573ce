// The treasury: the service's own account on each EVM chain (it pays on-ramps), derived from RAMP_WALLET_SEED beside the customers' wallets.
import { bytesToHex } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { customerDerivationPath, evmAddressFromPublicKey, parseWalletSeed } from '../wallets';
import type { Address, Hex } from './chain-client';
import { EVM_CHAINS, type EvmChain } from './settings';

/**
 * `m/44'/60'/0'/1/{i}`, i = 0 ETHEREUM, 1 BASE, 2 POLYGON: BIP-44's "internal" branch (change = 1) of account 0. Customers
 * derive only on the external branch (`m/44'/60'/{a}'/0/{b}`, wallets.ts), so no customer can ever get a treasury key,
 * whatever their id hashes to. One account per chain, so that a nonce, a balance or a compromised node of one chain
 * never touches another. Standard tools recover it from the seed with this path.
 */
export function treasuryDerivationPath(chain: EvmChain): string {
  return `m/44'/60'/0'/1/${EVM_CHAINS.indexOf(chain)}`;
}

/** A treasury account: its address, and its key kept in a private field (never in JSON, logs or `util.inspect`). */
export class TreasuryAccount {
  readonly #key: Hex;
  constructor(
    readonly blockchain: EvmChain,
    readonly address: Address,
    key: Hex,
  ) {
    this.#key = key;
  }
  /** For the signer alone (ChainClient.sign*); nothing else asks for it. */
  signingKey(): Hex {
    return this.#key;
  }
  toJSON() {
    return { blockchain: this.blockchain, address: this.address };
  }
  [Symbol.for('nodejs.util.inspect.custom')]() {
    return `TreasuryAccount(${this.blockchain} ${this.address})`;
  }
}

export function treasuryAccount(seedHex: string, chain: EvmChain): TreasuryAccount {
  return accountAt(seedHex, treasuryDerivationPath(chain), chain);
}

/** A customer's wallet as a signer (its own transfers, such as an off-ramp's), at the wallet's path; kept as the treasury's key is. */
export function customerAccount(seedHex: string, customerId: string, chain: EvmChain): TreasuryAccount {
  return accountAt(seedHex, customerDerivationPath(customerId, chain), chain);
}

function accountAt(seedHex: string, path: string, chain: EvmChain): TreasuryAccount {
  const node = HDKey.fromMasterSeed(parseWalletSeed(seedHex)).derive(path);
  if (!node.privateKey || !node.publicKey) throw new Error(`no key at ${path} on ${chain}`);
  const key = `0x${bytesToHex(node.privateKey)}` as Hex;
  const address = evmAddressFromPublicKey(node.publicKey) as Address;
  node.wipePrivateData();
  return new TreasuryAccount(chain, address, key);
}
