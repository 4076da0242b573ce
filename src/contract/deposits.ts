// A deposit: stablecoin that reached a customer's wallet from outside on a chain that settles on-chain (the `deposit.confirmed` event's data).
import { z } from '@hono/zod-openapi';
import { BLOCKCHAINS } from './blockchains';
import { STABLECOINS } from './currencies';

export const DepositSchema = z
  .object({
    id: z.uuid(),
    customerId: z.uuid(),
    blockchain: z.enum(BLOCKCHAINS),
    stablecoin: z.enum(STABLECOINS),
    amount: z.string().openapi({ description: 'What the customer was credited, 6 decimals.', example: '42.500000' }),
    fromAddress: z.string().openapi({ description: 'The sender on the chain (the zero address for a mint).' }),
    toAddress: z.string().openapi({ description: "The customer's wallet." }),
    transactionHash: z.string(),
    logIndex: z.number().int().openapi({ description: "The Transfer log's index in its block: a transaction may carry several deposits." }),
    blockNumber: z.string().openapi({ description: 'Decimal string (block numbers outgrow JSON numbers on some chains).', example: '19000000' }),
    blockExplorerUrl: z.url(),
    createdAt: z.iso.datetime(),
  })
  .openapi('Deposit');

export type Deposit = z.infer<typeof DepositSchema>;
