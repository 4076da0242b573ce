// Wallets: derived addresses match published vectors and independent implementations (viem, a hand-written base58check), are stable per customer and distinct across customers.
import assert from 'node:assert/strict';
import { createHash, pbkdf2Sync } from 'node:crypto';
import { describe, test } from 'node:test';
import { HDKey } from '@scure/bip32';
import fc from 'fast-check';
import { getAddress, isAddress } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import {
  addressAtPath,
  addressExplorerUrl,
  addressProblem,
  BLOCKCHAINS,
  type Blockchain,
  customerDerivationPath,
  deriveAddress,
  deriveWallets,
  isValidAddress,
  parseWalletSeed,
  toChecksumAddress,
  transactionExplorerUrl,
} from '../../server/domain/wallets';

// ---------------------------------------------------------------------------------------------------------
// An independent base58check (BigInt + node:crypto), so TRON addresses are not checked by the code that made them.

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const sha256d = (b: Uint8Array): Buffer => createHash('sha256').update(createHash('sha256').update(b).digest()).digest();

function base58Decode(s: string): Uint8Array {
  let n = 0n;
  for (const ch of s) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) throw new Error(`not base58: ${ch}`);
    n = n * 58n + BigInt(v);
  }
  const hex = n === 0n ? '' : n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0');
  const zeros = /^1*/.exec(s)?.[0].length ?? 0;
  return new Uint8Array([...new Uint8Array(zeros), ...Buffer.from(hex, 'hex')]);
}

function base58Encode(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** Decodes a TRON address independently: 25 bytes, version 0x41, double-SHA-256 checksum. Returns the 20-byte account. */
function decodeTron(address: string): Buffer {
  const raw = base58Decode(address);
  assert.equal(raw.length, 25, `${address} is ${raw.length} bytes, not 25`);
  assert.equal(raw[0], 0x41, 'version byte 0x41');
  assert.deepEqual(Buffer.from(raw.subarray(21)), sha256d(raw.subarray(0, 21)).subarray(0, 4), 'checksum');
  return Buffer.from(raw.subarray(1, 21));
}

const tronFromEvm = (evm: string): string => {
  const payload = Buffer.concat([Buffer.from([0x41]), Buffer.from(evm.slice(2), 'hex')]);
  return base58Encode(Buffer.concat([payload, sha256d(payload).subarray(0, 4)]));
};

const privateKeyAt = (seedHex: string, path: string): `0x${string}` => {
  const key = HDKey.fromMasterSeed(Buffer.from(seedHex, 'hex')).derive(path).privateKey;
  assert.ok(key);
  return `0x${Buffer.from(key).toString('hex')}`;
};

// ---------------------------------------------------------------------------------------------------------

const SEED = '6a1f0c3e9b8d7c5a4f3e2d1c0b9a8f7e6d5c4b3a29180706f5e4d3c2b1a09f8e';
const uuid = fc.uuid();
const seedArb = fc.uint8Array({ minLength: 16, maxLength: 64 }).map((b) => Buffer.from(b).toString('hex'));

describe('wallet derivation: published vectors', () => {
  // BIP-39 test mnemonic; its seed computed here from the mnemonic (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic").
  const mnemonicSeed = pbkdf2Sync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about', 'mnemonic', 2048, 64, 'sha512').toString('hex');

  test('the "abandon … about" mnemonic gives the addresses every wallet shows for it', () => {
    assert.equal(mnemonicSeed.slice(0, 16), '5eb00bbddcf06908');
    assert.equal(addressAtPath(mnemonicSeed, "m/44'/60'/0'/0/0", 'ETHEREUM'), '0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    assert.equal(addressAtPath(mnemonicSeed, "m/44'/195'/0'/0/0", 'TRON'), 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
  });

  test('BIP-32 test vector 1 (seed 000102…0f) at m/0H/1/2H/2/1000000000: addresses of its published private key, per viem', () => {
    const seed = '000102030405060708090a0b0c0d0e0f';
    const path = "m/0'/1/2'/2/1000000000";
    const published = '0x471b76e389e528d6de6d816857e012c5455051cad6660850e58372a6c3e6e7c8';
    const evm = privateKeyToAddress(published);
    assert.equal(addressAtPath(seed, path, 'ETHEREUM'), evm);
    assert.equal(addressAtPath(seed, path, 'POLYGON'), evm);
    assert.equal(addressAtPath(seed, path, 'TRON'), tronFromEvm(evm));
  });
});

describe('wallet derivation: per customer', () => {
  test('EVM addresses are viem’s for the same key, EIP-55 checksummed; TRON decodes independently to the same account', () => {
    fc.assert(
      fc.property(fc.oneof(fc.constant(SEED), seedArb), uuid, (seed, customerId) => {
        const evm = deriveAddress(seed, customerId, 'ETHEREUM');
        assert.equal(evm, privateKeyToAddress(privateKeyAt(seed, customerDerivationPath(customerId, 'ETHEREUM'))));
        assert.ok(isAddress(evm, { strict: true }));
        assert.equal(getAddress(evm), evm);
        const tron = deriveAddress(seed, customerId, 'TRON');
        assert.match(tron, /^T[1-9A-HJ-NP-Za-km-z]{33}$/);
        const account = decodeTron(tron);
        const tronKeyEvm = privateKeyToAddress(privateKeyAt(seed, customerDerivationPath(customerId, 'TRON')));
        assert.equal(`0x${account.toString('hex')}`, tronKeyEvm.toLowerCase());
      }),
      { numRuns: 60 },
    );
  });

  test('the derivation path is BIP-44 shaped with 31-bit indices, and the same for the three EVM chains', () => {
    fc.assert(
      fc.property(uuid, (id) => {
        const m = /^m\/44'\/(60|195)'\/(\d+)'\/0\/(\d+)$/.exec(customerDerivationPath(id, 'ETHEREUM'));
        assert.ok(m);
        assert.equal(m[1], '60');
        assert.ok(BigInt(m[2] ?? '') < 2n ** 31n && BigInt(m[3] ?? '') < 2n ** 31n);
        assert.equal(customerDerivationPath(id, 'BASE'), customerDerivationPath(id, 'ETHEREUM'));
        assert.equal(customerDerivationPath(id, 'POLYGON'), customerDerivationPath(id, 'ETHEREUM'));
        assert.equal(customerDerivationPath(id, 'TRON'), customerDerivationPath(id, 'ETHEREUM').replace("/60'/", "/195'/"));
      }),
      { numRuns: 200 },
    );
    // Pinned: the path, and so every customer's address, must never change under a refactor — funds sit there.
    // sha256("0190f2a4-…-000000000001") starts 5dc71a2a f2c0f6b0: bits 0–30 → 786664725, bits 31–61 → 1018183084.
    const id = '0190f2a4-0000-7000-8000-000000000001';
    assert.equal(customerDerivationPath(id, 'ETHEREUM'), "m/44'/60'/786664725'/0/1018183084");
    assert.equal(customerDerivationPath(id.toUpperCase(), 'TRON'), "m/44'/195'/786664725'/0/1018183084");
    assert.equal(deriveAddress(SEED, id, 'ETHEREUM'), '0x63C2b81a9d678540dAF6D202a8dD59455B5F1FC0');
    assert.equal(deriveAddress(SEED, id, 'TRON'), 'TKjyd1wEuKq7WG3bZ6CSEHiVXVS3rmWmpq');
  });

  test('deterministic per seed and customer; a customer id in upper case is the same customer', () => {
    fc.assert(
      fc.property(uuid, (id) => {
        const once = deriveWallets({ seedHex: SEED, customerId: id, sandbox: true, defaultBlockchain: 'BASE' });
        assert.deepEqual(deriveWallets({ seedHex: SEED, customerId: id, sandbox: true, defaultBlockchain: 'BASE' }), once);
        assert.deepEqual(deriveWallets({ seedHex: SEED.toUpperCase(), customerId: id.toUpperCase(), sandbox: true, defaultBlockchain: 'BASE' }), once);
      }),
      { numRuns: 15 },
    );
  });

  test('different customers, and different seeds, get different addresses', () => {
    const ids = fc.sample(fc.uniqueArray(uuid, { minLength: 150, maxLength: 150 }), { numRuns: 1, seed: 42 })[0] ?? [];
    assert.equal(ids.length, 150);
    for (const chain of ['ETHEREUM', 'TRON'] as const) {
      const addresses = new Set(ids.map((id) => deriveAddress(SEED, id, chain)));
      assert.equal(addresses.size, ids.length, `${chain}: ${ids.length - addresses.size} collisions`);
    }
    const id = ids[0] ?? '';
    assert.notEqual(deriveAddress(SEED, id, 'ETHEREUM'), deriveAddress(`${SEED.slice(0, -2)}8f`, id, 'ETHEREUM'));
  });

  test('deriveWallets: one wallet per chain, the EVM ones sharing an address, one default, testnet explorers in sandbox', () => {
    const id = '0190f2a4-1234-7000-8000-00000000abcd';
    const wallets = deriveWallets({ seedHex: SEED, customerId: id, sandbox: true, defaultBlockchain: 'POLYGON' });
    assert.deepEqual(wallets.map((w) => w.blockchain), [...BLOCKCHAINS]);
    assert.deepEqual(wallets.filter((w) => w.isDefault).map((w) => w.blockchain), ['POLYGON']);
    const byChain = Object.fromEntries(wallets.map((w) => [w.blockchain, w])) as Record<Blockchain, (typeof wallets)[number]>;
    assert.equal(byChain.ETHEREUM.address, byChain.BASE.address);
    assert.equal(byChain.ETHEREUM.address, byChain.POLYGON.address);
    assert.notEqual(byChain.TRON.address, byChain.ETHEREUM.address);
    for (const w of wallets) assert.equal(w.address, deriveAddress(SEED, id, w.blockchain));
    assert.equal(byChain.ETHEREUM.blockExplorerUrl, `https://sepolia.etherscan.io/address/${byChain.ETHEREUM.address}`);
    assert.equal(byChain.BASE.blockExplorerUrl, `https://sepolia.basescan.org/address/${byChain.BASE.address}`);
    assert.equal(byChain.POLYGON.blockExplorerUrl, `https://amoy.polygonscan.com/address/${byChain.POLYGON.address}`);
    assert.equal(byChain.TRON.blockExplorerUrl, `https://nile.tronscan.org/#/address/${byChain.TRON.address}`);
    const live = deriveWallets({ seedHex: SEED, customerId: id, sandbox: false, defaultBlockchain: 'TRON' });
    assert.deepEqual(
      live.map((w) => new URL(w.blockExplorerUrl).host),
      ['etherscan.io', 'basescan.org', 'tronscan.org', 'polygonscan.com'],
    );
    assert.deepEqual(live.filter((w) => w.isDefault).map((w) => w.blockchain), ['TRON']);
    assert.equal(transactionExplorerUrl('BASE', '0xabc', true), 'https://sepolia.basescan.org/tx/0xabc');
    assert.equal(transactionExplorerUrl('TRON', 'abc', false), 'https://tronscan.org/#/transaction/abc');
    assert.equal(addressExplorerUrl('POLYGON', '0x1', false), 'https://polygonscan.com/address/0x1');
  });

  test('seeds must be 16 to 64 bytes of hex, an even number of digits', () => {
    for (const bad of ['', 'ab'.repeat(15), 'ab'.repeat(65), `${'ab'.repeat(16)}a`, 'zz'.repeat(16)]) {
      assert.throws(() => parseWalletSeed(bad), /RAMP_WALLET_SEED/, JSON.stringify(bad));
    }
    assert.equal(parseWalletSeed('AB'.repeat(16)).length, 16);
  });
});

describe('address validation', () => {
  test('agrees with viem on EIP-55: every derived address and its all-lower / all-upper forms pass; a flipped letter fails', () => {
    fc.assert(
      fc.property(uuid, fc.nat(), (id, pick) => {
        const evm = deriveAddress(SEED, id, 'BASE');
        assert.ok(isValidAddress('BASE', evm));
        assert.ok(isValidAddress('ETHEREUM', evm.toLowerCase()));
        assert.ok(isValidAddress('POLYGON', `0x${evm.slice(2).toUpperCase()}`));
        const letters = [...evm.slice(2)].flatMap((c, i) => (/[a-fA-F]/.test(c) ? [i + 2] : []));
        if (letters.length < 2) return; // flipping the only letter would make it single-case, which carries no checksum
        const i = letters[pick % letters.length] ?? 2;
        const c = evm[i] ?? '';
        const flipped = evm.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + evm.slice(i + 1);
        const body = flipped.slice(2);
        // Flipping the only upper-case (or lower-case) letter leaves a single-case address, which carries no checksum and is valid.
        if (body === body.toLowerCase() || body === body.toUpperCase()) return;
        assert.equal(isValidAddress('ETHEREUM', flipped), isAddress(flipped, { strict: true }));
        assert.equal(isValidAddress('ETHEREUM', flipped), false);
      }),
      { numRuns: 100 },
    );
  });

  test('checksums arbitrary addresses the way viem does', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const lower = `0x${Buffer.from(bytes).toString('hex')}`;
        assert.equal(toChecksumAddress(lower), getAddress(lower));
      }),
      { numRuns: 300 },
    );
  });

  test('TRON: valid base58check with 0x41 passes; a changed character, another version byte, or an EVM address fails', () => {
    fc.assert(
      fc.property(uuid, fc.nat(), fc.nat(), (id, at, by) => {
        const tron = deriveAddress(SEED, id, 'TRON');
        assert.ok(isValidAddress('TRON', tron));
        const i = 1 + (at % (tron.length - 1));
        const replacement = ALPHABET[(ALPHABET.indexOf(tron[i] ?? '1') + 1 + (by % 57)) % 58] ?? '1';
        const mutated = tron.slice(0, i) + replacement + tron.slice(i + 1);
        let independentlyValid = true;
        try {
          decodeTron(mutated);
        } catch {
          independentlyValid = false;
        }
        assert.equal(isValidAddress('TRON', mutated), independentlyValid);
      }),
      { numRuns: 200 },
    );
    const account = Buffer.alloc(20, 7);
    const withVersion = (v: number) => {
      const payload = Buffer.concat([Buffer.from([v]), account]);
      return base58Encode(Buffer.concat([payload, sha256d(payload).subarray(0, 4)]));
    };
    assert.ok(isValidAddress('TRON', withVersion(0x41)));
    assert.equal(isValidAddress('TRON', withVersion(0x00)), false);
    assert.equal(isValidAddress('TRON', deriveAddress(SEED, 'x', 'ETHEREUM')), false);
    assert.equal(isValidAddress('ETHEREUM', deriveAddress(SEED, 'x', 'TRON')), false);
  });

  test('malformed values and the zero address are refused, with a message', () => {
    for (const [chain, bad] of [
      ['ETHEREUM', '0x0000000000000000000000000000000000000000'],
      ['ETHEREUM', '0x123'],
      ['ETHEREUM', '9858EfFD232B4033E47d90003D41EC34EcaEda94'],
      ['ETHEREUM', '0x9858EfFD232B4033E47d90003D41EC34EcaEda9g'],
      ['BASE', ' 0x9858EfFD232B4033E47d90003D41EC34EcaEda94'],
      ['TRON', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb'], // base58check of 0x41 + twenty zero bytes
      ['TRON', 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYd'],
      ['TRON', ''],
      ['POLYGON', 42],
      ['TRON', null],
    ] as const) {
      assert.equal(isValidAddress(chain, bad), false, `${chain} ${String(bad)}`);
      assert.ok(addressProblem(chain, bad));
    }
    assert.equal(decodeTron('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb').every((b) => b === 0), true, 'the zero TRON address really is zero');
    assert.equal(addressProblem('ETHEREUM', '0x9858EfFD232B4033E47d90003D41EC34EcaEda94'), null);
  });
});
