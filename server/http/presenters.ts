// Rows → the response shapes of the contract. Each takes the executor it reads with, so it works inside a transaction too.
import type { Customer } from '../../src/contract/customers';
import type { AssociatedParty, Document, Verification } from '../../src/contract/kyc';
import { accounts } from '../domain/ledger';
import type { TransactionLimits } from '../domain/limits';
import { STABLECOINS } from '../domain/money';
import { addressExplorerUrl } from '../domain/wallets';
import { deriveRequirements, IDENTITY_DOCUMENT_TYPES } from '../domain/requirements';
import { BUSINESS_PARTY_DOCUMENTS } from '../domain/verification';
import { type KycSnapshot, loadKycSnapshots } from '../flows/kyc-state';
import type { Db } from '../store/db';
import type { PartyRow } from '../store/queries/associated-parties';
import type { CustomerRow } from '../store/queries/customers';
import type { DocumentRow } from '../store/queries/documents';
import type { VerificationRow } from '../store/queries/verifications';
import { accountBalances } from '../store/queries/ledger';
import { customerLimits } from '../flows/limits';
import { type WalletRow, walletsOf } from '../store/queries/wallets';
import type { Deps } from './deps';

type PresentDeps = Pick<Deps, 'tokens' | 'config' | 'clock' | 'rates'>;

export interface PresentOptions {
  includeTransactionLimits?: boolean;
  includeBalances?: boolean;
}

interface Extras {
  snapshot: KycSnapshot;
  wallets: WalletRow[];
  balances?: { blockchain: string; asset: string; balance: string }[];
  limits?: TransactionLimits;
}

export async function presentCustomers(db: Db, deps: PresentDeps, rows: CustomerRow[], opts: PresentOptions = {}): Promise<Customer[]> {
  if (rows.length === 0) return [];
  const partnerId = rows[0]!.partnerId;
  const [snapshots, walletRows] = await Promise.all([loadKycSnapshots(db, partnerId, rows), walletsOf(db, partnerId, rows.map((r) => r.id))]);
  return Promise.all(
    rows.map(async (row) =>
      presentWith(
        row,
        {
          snapshot: snapshots.get(row.id)!,
          wallets: walletRows.filter((w) => w.customerId === row.id),
          balances: opts.includeBalances ? await accountBalances(db, partnerId, accounts.customer(row.id)) : undefined,
          limits: opts.includeTransactionLimits ? await customerLimits(db, deps, row) : undefined,
        },
        deps,
      ),
    ),
  );
}

export async function presentCustomer(db: Db, deps: PresentDeps, row: CustomerRow, opts: PresentOptions = {}): Promise<Customer> {
  return (await presentCustomers(db, deps, [row], opts))[0]!;
}

async function presentWith(row: CustomerRow, x: Extras, deps: PresentDeps): Promise<Customer> {
  const snap = x.snapshot;
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
    wallets: x.wallets.map((w) => ({
      blockchain: w.blockchain,
      address: w.address,
      blockExplorerUrl: addressExplorerUrl(w.blockchain, w.address, deps.config.sandbox),
      isDefault: w.isDefault,
      ...(x.balances
        ? {
            balances: STABLECOINS.map((coin) => ({
              stablecoin: coin,
              balance: x.balances!.find((b) => b.blockchain === w.blockchain && b.asset === coin)?.balance ?? '0.000000',
            })),
          }
        : {}),
    })),
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
    ...(x.limits ? { transactionLimits: x.limits } : {}),
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
