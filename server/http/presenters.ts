// Rows → the response shapes of the contract. Each takes the executor it reads with, so it works inside a transaction too.
import type { Customer } from '../../src/contract/customers';
import type { AssociatedParty, Document, Verification } from '../../src/contract/kyc';
import { defaultLimits, transactionLimits } from '../domain/limits';
import { deriveRequirements, IDENTITY_DOCUMENT_TYPES } from '../domain/requirements';
import { BUSINESS_PARTY_DOCUMENTS } from '../domain/verification';
import { type KycSnapshot, loadKycSnapshots } from '../flows/kyc-state';
import type { Db } from '../store/db';
import type { PartyRow } from '../store/queries/associated-parties';
import type { CustomerRow } from '../store/queries/customers';
import type { DocumentRow } from '../store/queries/documents';
import type { VerificationRow } from '../store/queries/verifications';
import type { Deps } from './deps';

type PresentDeps = Pick<Deps, 'tokens' | 'config'>;

export async function presentCustomers(
  db: Db,
  deps: PresentDeps,
  rows: CustomerRow[],
  opts: { includeTransactionLimits?: boolean } = {},
): Promise<Customer[]> {
  if (rows.length === 0) return [];
  const snapshots = await loadKycSnapshots(db, rows[0]!.partnerId, rows);
  return Promise.all(rows.map((row) => presentWithSnapshot(row, snapshots.get(row.id)!, deps, opts)));
}

export async function presentCustomer(db: Db, deps: PresentDeps, row: CustomerRow, opts: { includeTransactionLimits?: boolean } = {}): Promise<Customer> {
  return (await presentCustomers(db, deps, [row], opts))[0]!;
}

async function presentWithSnapshot(row: CustomerRow, snap: KycSnapshot, deps: PresentDeps, opts: { includeTransactionLimits?: boolean }): Promise<Customer> {
  const token = await deps.tokens.signVerificationLink(row.partnerId, row.id);
  return {
    id: row.id,
    type: row.type,
    ...(row.type === 'INDIVIDUAL' ? { name: row.name ?? '', birthDate: row.birthDate ?? undefined } : {}),
    ...(row.type === 'BUSINESS' ? { legalName: row.legalName ?? '', incorporationDate: row.incorporationDate ?? undefined } : {}),
    taxId: row.taxId,
    ...(row.country ? { country: row.country } : {}),
    ...(row.email ? { email: row.email } : {}),
    metadata: row.metadata,
    wallets: [],
    verification: { status: row.verificationStatus, level: 'STANDARD', link: `${deps.config.publicUrl}/verify/${token}` },
    requirements: deriveRequirements({
      type: row.type,
      verificationStatus: row.verificationStatus,
      hasAdditionalInformation: snap.kyc.hasAdditionalInformation,
      documents: snap.documents,
      associatedParties: snap.parties.length,
      livenessDone: snap.kyc.livenessDone,
    }),
    ...(row.additionalInformation ? { additionalInformation: row.additionalInformation } : {}),
    ...(opts.includeTransactionLimits ? { transactionLimits: transactionLimits(defaultLimits[row.type], { daily: '0', monthly: '0' }) } : {}),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function presentDocument(d: DocumentRow): Document {
  return {
    id: d.id,
    type: d.type as Document['type'],
    side: d.side,
    country: d.country,
    associatedPartyId: d.associatedPartyId,
    status: d.status,
    comment: d.comment,
    rejectLabels: d.rejectLabels ?? [],
    fileName: d.fileName,
    contentType: d.contentType as Document['contentType'],
    size: d.size,
    sha256: d.sha256,
    createdAt: d.createdAt.toISOString(),
  };
}

export function presentParty(p: PartyRow, docs: DocumentRow[]): AssociatedParty {
  const mine = docs.filter((d) => d.associatedPartyId === p.id);
  const status = (types: readonly string[]) => {
    const latest = mine.filter((d) => types.includes(d.type)).sort((a, b) => (a.id < b.id ? 1 : -1))[0];
    if (p.verificationStatus === 'APPROVED') return 'APPROVED';
    return latest ? latest.status : 'NOT_SENT';
  };
  const requirements =
    p.type === 'INDIVIDUAL'
      ? [{ name: 'IDENTITY_DOCUMENT', status: status(IDENTITY_DOCUMENT_TYPES), acceptedTypes: [...IDENTITY_DOCUMENT_TYPES] }]
      : BUSINESS_PARTY_DOCUMENTS.map((t) => ({ name: t, status: status([t]) }));
  return {
    id: p.id,
    customerId: p.customerId,
    parentId: p.parentId,
    type: p.type,
    roles: p.roles,
    ownershipPercentage: p.ownershipPercentage,
    ...(p.name ? { name: p.name } : {}),
    ...(p.legalName ? { legalName: p.legalName } : {}),
    taxId: p.taxId,
    ...(p.birthDate ? { birthDate: p.birthDate } : {}),
    ...(p.incorporationDate ? { incorporationDate: p.incorporationDate } : {}),
    email: p.email,
    address: p.address,
    verification: { status: p.verificationStatus, level: 'STANDARD' },
    requirements,
    createdAt: p.createdAt.toISOString(),
  };
}

export function presentVerification(v: VerificationRow): Verification {
  return {
    id: v.id,
    customerId: v.customerId,
    status: v.status,
    level: 'STANDARD',
    ...(v.status === 'TEMPORARY_REJECTION' && v.statusReason ? { statusReason: v.statusReason } : {}),
    createdAt: v.createdAt.toISOString(),
    updatedAt: v.updatedAt.toISOString(),
  };
}
