// A customer's KYC as the requirement and verification rules see it, built from its rows: which of its own and its
// parties' documents count (the latest upload of each side; a two-sided type once both sides are in), and liveness.
import { type RequirementStatus, TWO_SIDED_TYPES } from './requirements';
import type { KycState, PartyState } from './verification';

export interface KycSnapshot {
  kyc: KycState;
  parties: PartyState[];
  /** The customer's own documents, as the requirement rules see them. */
  documents: { type: string; status: RequirementStatus }[];
}

/** What a snapshot reads of a customer, a document and a party row. */
export type SnapshotCustomer = { id: string; additionalInformation: unknown; livenessCompletedAt: Date | null };
export type SnapshotDocument = { customerId: string; partyId: string | null; type: string; side: string | null; status: string; id: string };
export type SnapshotParty = { customerId: string; id: string; type: PartyState['type'] };

/** The snapshots from rows already read (one statement may have fetched them with the customer's other parts). */
export function buildKycSnapshots(rows: SnapshotCustomer[], docs: SnapshotDocument[], parties: SnapshotParty[]): Map<string, KycSnapshot> {
  const out = new Map<string, KycSnapshot>();
  for (const row of rows) {
    // Latest upload of each (party, type, side) decides: a corrected re-upload supersedes the rejected one.
    const latest = new Map<string, (typeof docs)[number]>();
    for (const d of docs.filter((x) => x.customerId === row.id).sort((a, b) => (a.id < b.id ? -1 : 1))) {
      if (d.type === 'SELFIE') continue;
      latest.set(`${d.partyId ?? ''}:${d.type}:${TWO_SIDED_TYPES.includes(d.type) ? (d.side ?? '') : ''}`, d);
    }
    const own = combineSides([...latest.values()].filter((d) => !d.partyId));
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
          documentTypes: combineSides([...latest.values()].filter((d) => d.partyId === p.id))
            .filter(usable)
            .map((d) => d.type),
        })),
      documents: own.map((d) => ({ type: d.type, status: d.status === 'SENT' ? 'SENT' : d.status })),
    });
  }
  return out;
}

/**
 * One entry per document type: a two-sided type (ID card, driver's licence) appears only once both sides are in — or as
 * REJECTED when a side was rejected (so the correction is asked for) — with APPROVED only when both sides are.
 */
function combineSides<D extends { type: string; side: string | null; status: string }>(docs: D[]): { type: string; status: RequirementStatus }[] {
  const out: { type: string; status: RequirementStatus }[] = [];
  const byType = new Map<string, D[]>();
  for (const d of docs) byType.set(d.type, [...(byType.get(d.type) ?? []), d]);
  for (const [type, list] of byType) {
    const statuses = list.map((d) => d.status as RequirementStatus);
    if (statuses.includes('REJECTED')) out.push({ type, status: 'REJECTED' });
    else if (TWO_SIDED_TYPES.includes(type) && !(['FRONT_SIDE', 'BACK_SIDE'] as const).every((side) => list.some((d) => d.side === side))) continue;
    else out.push({ type, status: statuses.every((st) => st === 'APPROVED') ? 'APPROVED' : 'SENT' });
  }
  return out;
}
