// The partner's own fees: created with the wallet they are paid to checked for its chain, read one or a page at a time.
import type { z } from 'zod';
import type { CreatePartnerFeeSchema } from '../../src/contract/exchange-rates';
import { invalid, notFound } from '../domain/errors';
import { parsePartnerFees } from '../domain/fee-schedule';
import { addressProblem, type Blockchain } from '../domain/wallets';
import type { Clock } from '../clock';
import { newId } from '../ids';
import type { Db } from '../store/db';
import { getPartnerFee, insertPartnerFee, listPartnerFees, type PartnerFeeRow } from '../store/queries/partner-fees';

export type { PartnerFeeRow };

export async function createPartnerFee(db: Db, deps: { clock: Clock; defaultBlockchain: Blockchain }, partnerId: string, body: z.infer<typeof CreatePartnerFeeSchema>): Promise<PartnerFeeRow> {
  const blockchain = body.blockchain ?? deps.defaultBlockchain;
  const fees = parsePartnerFees(body.fees);
  const problem = addressProblem(blockchain, body.walletAddress);
  if (problem) throw invalid([{ path: 'walletAddress', message: problem, code: 'INVALID_ADDRESS' }]);
  return insertPartnerFee(db, { id: newId(), partnerId, name: body.name, walletAddress: body.walletAddress, blockchain, fees, createdAt: deps.clock.now() });
}

/** The partner's fee; another partner's or an unknown one is 404. */
export async function readPartnerFee(db: Db, partnerId: string, id: string): Promise<PartnerFeeRow> {
  const row = await getPartnerFee(db, partnerId, id);
  if (!row) throw notFound('Partner fee');
  return row;
}

export const listPartnerFeesOf = (db: Db, partnerId: string, pageQuery: Parameters<typeof listPartnerFees>[2]) => listPartnerFees(db, partnerId, pageQuery);
