// Loads what a customer's requirements and verification depend on (documents, parties, liveness) in two queries, for one or
// many customers; the snapshot itself is the domain's (domain/kyc-snapshot.ts).
import { and, eq, inArray } from 'drizzle-orm';
import { buildKycSnapshots, type KycSnapshot } from '../domain/kyc-snapshot';
import type { Db } from '../store/db';
import type { CustomerRow } from '../store/queries/customers';
import { associatedParties, documents } from '../store/schema/index';

export async function loadKycSnapshots(db: Db, partnerId: string, rows: CustomerRow[]): Promise<Map<string, KycSnapshot>> {
  const ids = rows.map((r) => r.id);
  const out = new Map<string, KycSnapshot>();
  if (ids.length === 0) return out;
  // Sequential: `db` may be a transaction's single connection.
  const docs = await db
    .select({ customerId: documents.customerId, partyId: documents.associatedPartyId, type: documents.type, side: documents.side, status: documents.status, id: documents.id })
    .from(documents)
    .where(and(eq(documents.partnerId, partnerId), inArray(documents.customerId, ids)));
  const parties = await db
    .select({ customerId: associatedParties.customerId, id: associatedParties.id, type: associatedParties.type })
    .from(associatedParties)
    .where(and(eq(associatedParties.partnerId, partnerId), inArray(associatedParties.customerId, ids)));
  return buildKycSnapshots(rows, docs, parties);
}
