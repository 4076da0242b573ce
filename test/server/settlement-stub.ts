// A settlement provider for tests of production mode: recognisably not the sandbox's rails.
import type { SettlementProvider } from '../../server/domain/settlement/settlement-provider';

export const stubSettlement = (): SettlementProvider & { transfers: string[] } => {
  const transfers: string[] = [];
  return {
    name: 'test-psp',
    transfers,
    payIn: ({ rail, amount, currency, reference, expiresAt }) => ({ rail, instructions: `pay ${amount} ${currency} to TEST-PSP ref ${reference}`, expiresAt: expiresAt.toISOString() }),
    chainTransfer: ({ blockchain, reference }) => {
      transfers.push(reference);
      return { transactionHash: `0x${'ab'.repeat(32)}`, blockExplorerUrl: `https://explorer.test-psp.example/${blockchain}/${reference}` };
    },
    stepDelayMs: () => 1000,
    autopayAfterMs: 0,
  };
};
