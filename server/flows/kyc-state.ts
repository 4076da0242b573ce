// Loads what a customer's requirements and verification depend on (documents, parties, liveness) in two queries, for one or many customers.
import { and, eq, inArray } from 'drizzle-orm';
import type { RequirementStatus } from '../domain/requirements';
import type { KycState, PartyState } from '../domain/verification';
import type { Db } from '../store/db';
import type { CustomerRow } from '../store/queries/customers';
import { associatedParties, documents } from '../store/schema/index';

export interface KycSnapshot {
  kyc: KycState;
  parties: PartyState[];
  /** The customer's own documents, as the requirement rules see them. */
  documents: { type: string; status: RequirementStatus }[];
}

export async function loadKycSnapshots(db: Db, partnerId: string, rows: CustomerRow[]): Promise<Map<string, KycSnapshot>> {
  const ids = rows.map((r) => r.id);
  const out = new Map<string, KycSnapshot>();
  if (ids.length === 0) return out;
  const [docs, parties] = await Promise.all([
    db
      .select({ customerId: documents.customerId, partyId: documents.associatedPartyId, type: documents.type, status: documents.status, id: documents.id })
      .from(documents)
      .where(and(eq(documents.partnerId, partnerId), inArray(documents.customerId, ids))),
    db
      .select({ customerId: associatedParties.customerId, id: associatedParties.id, type: associatedParties.type })
      .from(associatedParties)
      .where(and(eq(associatedParties.partnerId, partnerId), inArray(associatedParties.customerId, ids))),
  ]);
  for (const row of rows) {
    // Latest upload of each (type, party) decides: a corrected re-upload supersedes the rejected one.
    const latest = new Map<string, (typeof docs)[number]>();
    for (const d of docs.filter((x) => x.customerId === row.id).sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (d.type === 'SELFIE') continue;
      latest.set(`${d.partyId ?? ''}:${d.type}`, d);
    }
    const own = [...latest.values()].filter((d) => !d.partyId);
    const usable = (d: { status: string }) => d.status !== 'REJECTED';
    out.set(row.id, {
      kyc: {
        hasAdditionalInformation: row.additionalInformation !== null,
        documentTypes: own.filter(usable).map((d) => d.type),
        livenessDone: row.livenessCompletedAt !== null,
      },
      parties: parties
        .filter((p) => p.customerId === row.id)
        .map((p) => ({
          id: p.id,
          type: p.type,
          documentTypes: [...latest.values()].filter((d) => d.partyId === p.id && usable(d)).map((d) => d.type),
        })),
      documents: own.map((d) => ({ type: d.type, status: d.status === 'SENT' ? 'SENT' : d.status })),
    });
  }
  return out;
}
