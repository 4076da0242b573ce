// The simulated rails: what the sandbox settles with. A fixed merchant PIX key and a textbook IBAN to pay into, random
// transaction hashes linked to the public testnet explorers, and steps that take RAMP_SANDBOX_STEP_MS. Never production.
import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { brCode } from '../domain/brcode';
import type { PayInInstructions, SettlementProvider } from '../domain/settlement/settlement-provider';
import { type Blockchain, transactionExplorerUrl } from '../domain/wallets';

/** The receiving side of sandbox on-ramp payments (a production PSP account replaces it). */
export const SANDBOX_MERCHANT = {
  pixKey: '7d9f0d2e-5c1b-4f7a-9a63-2f0f3c1e8b42',
  name: 'Ramp Pagamentos Ltda',
  city: 'Sao Paulo',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
};

const randomHash = (chain: Blockchain) => (chain === 'TRON' ? '' : '0x') + randomBytes(32).toString('hex');

export function simulatedSettlement(config: Pick<Config, 'RAMP_SANDBOX_STEP_MS' | 'RAMP_SANDBOX_AUTOPAY_MS'>): SettlementProvider {
  return {
    name: 'simulated',
    payIn({ rail, currency, amount, reference, expiresAt }): PayInInstructions {
      const until = expiresAt.toISOString();
      if (rail === 'PIX') {
        return { rail, brCode: brCode({ pixKey: SANDBOX_MERCHANT.pixKey, amount, merchantName: SANDBOX_MERCHANT.name, merchantCity: SANDBOX_MERCHANT.city, txid: reference }), expiresAt: until };
      }
      return { rail, beneficiary: SANDBOX_MERCHANT.name, iban: SANDBOX_MERCHANT.iban, bic: SANDBOX_MERCHANT.bic, reference, amount, currency, expiresAt: until };
    },
    chainTransfer({ blockchain }) {
      const transactionHash = randomHash(blockchain);
      return { transactionHash, blockExplorerUrl: transactionExplorerUrl(blockchain, transactionHash, true) };
    },
    stepDelayMs: () => config.RAMP_SANDBOX_STEP_MS,
    autopayAfterMs: config.RAMP_SANDBOX_AUTOPAY_MS,
  };
}
