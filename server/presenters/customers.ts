// Rows → the response shapes of the contract. Each takes the executor it reads with, so it works inside a transaction too.
import type { Customer, CustomerEvent } from '../../src/contract/customers';
import type { AssociatedParty, Document, Verification } from '../../src/contract/kyc';
import type { TransactionLimits } from '../domain/limits';
import { STABLECOINS } from '../domain/money';
import { addressExplorerUrl } from '../domain/wallets';
import { deriveRequirements, IDENTITY_DOCUMENT_TYPES, IDENTITY_REQUIREMENT, TWO_SIDED_TYPES } from '../domain/requirements';
import { BUSINESS_PARTY_DOCUMENTS, isDecided } from '../domain/verification';
import { buildKycSnapshots, type KycSnapshot } from '../domain/kyc-snapshot';
import type { Db } from '../store/db';
import type { PartyRow } from '../store/queries/associated-parties';
import type { CustomerRow } from '../store/queries/customers';
import type { DocumentRow } from '../store/queries/documents';
import { latestStatusReasons, type VerificationRow } from '../store/queries/verifications';
import { limitSetWith, limitWindows, transactionLimits } from '../domain/limits';
import { type CustomerParts, getCustomerWithParts, loadCustomerParts } from '../store/queries/customer-parts';
import type { WalletRow } from '../store/queries/wallets';
import type { Deps } from '../deps';

type PresentDeps = Pick<Deps, 'tokens' | 'config' | 'clock' | 'rates'>;

export interface PresentOptions {
  includeTransactionLimits?: boolean;
  includeBalances?: boolean;
  /** false: leave `verification.link` out (event rows, webhooks): a link is a bearer credential, minted only on a read. */
  withLink?: boolean;
}

interface Extras {
  snapshot: KycSnapshot;
  wallets: Pick<WalletRow, 'blockchain' | 'address' | 'isDefault'>[];
  balances?: { blockchain: string; asset: string; balance: string }[];
  limits?: TransactionLimits;
  /** The latest review's reasons, for a customer in TEMPORARY_REJECTION. */
  statusReason?: Verification['statusReason'];
}

/**
 * A customer read (`GET /v2/customers/{id}`, the BFF's): the row and everything it shows in one statement; undefined
 * when the partner has no such customer. Reads that share a statement get one row object from the coalescer, and share
 * one presented customer too (presenting is not free when every client reads one customer); each read still gets a
 * copy with a link of its own, minted for it: a fresh link on every read.
 */
export async function readCustomer(db: Db, deps: PresentDeps, partnerId: string, id: string, opts: PresentOptions = {}): Promise<Customer | undefined> {
  const found = await getCustomerWithParts(db, partnerId, id, partsOptions(deps, opts));
  if (!found) return undefined;
  // A row object answers reads of one shape only: the coalescer's group names the balances and the limit windows.
  let presented = linkless.get(found);
  if (!presented) {
    presented = presentCustomers(db, deps, [found.row], { ...opts, withLink: false }, found.parts).then((customers) => customers[0]!);
    linkless.set(found, presented);
  }
  const customer = await presented;
  if (opts.withLink === false) return customer;
  return { ...customer, verification: verificationOf(found.row, verificationLink(deps, found.row), customer.verification.statusReason) };
}

/** Per row object the store answered, its customer presented without a link (never changed: each read copies it). */
const linkless = new WeakMap<object, Promise<Customer>>();

/** A customer's `verification`: its status, and its link and review's reasons when it has them. */
const verificationOf = (row: CustomerRow, link: string | undefined, statusReason: Verification['statusReason'] | undefined): Customer['verification'] =>
  ({ status: row.verificationStatus, level: 'STANDARD', ...(link ? { link } : {}), ...(statusReason ? { statusReason } : {}) }) as Customer['verification'];

/** A fresh verification link: its own expiry and id; never the same twice, never stored. */
const verificationLink = (deps: PresentDeps, row: CustomerRow): string => `${deps.config.publicUrl}/verify/${deps.tokens.verificationLinkToken(row.partnerId, row.id)}`;

const partsOptions = (deps: PresentDeps, opts: PresentOptions) => ({
  balances: opts.includeBalances,
  limits: opts.includeTransactionLimits ? limitWindows(deps.clock.now()) : undefined,
});

export async function presentCustomers(db: Db, deps: PresentDeps, rows: CustomerRow[], opts: PresentOptions = {}, loaded?: CustomerParts): Promise<Customer[]> {
  if (rows.length === 0) return [];
  const partnerId = rows[0]!.partnerId;
  // One statement for everything but the rows themselves (documents, parties, wallets, balances, limit usage).
  const parts =
    loaded ??
    (await loadCustomerParts(
      db,
      partnerId,
      rows.map((r) => r.id),
      partsOptions(deps, opts),
    ));
  const snapshots = buildKycSnapshots(rows, parts.docs, parts.parties);
  // The latest review's reasons of the customers in TEMPORARY_REJECTION: one statement for the page, none when there are none.
  const rejected = rows.filter((r) => r.verificationStatus === 'TEMPORARY_REJECTION').map((r) => r.id);
  const reasons = await latestStatusReasons(db, partnerId, rejected);
  const out: Customer[] = [];
  for (const row of rows) {
    const used = parts.used.find((u) => u.customerId === row.id) ?? { daily: '0', monthly: '0' };
    out.push(
      presentWith(
        row,
        {
          snapshot: snapshots.get(row.id)!,
          wallets: parts.wallets.filter((w) => w.customerId === row.id),
          balances: opts.includeBalances ? parts.balances.filter((b) => b.customerId === row.id) : undefined,
          limits: opts.includeTransactionLimits ? transactionLimits(limitSetWith(row, parts.overrides.find((o) => o.customerId === row.id)), used) : undefined,
          statusReason: reasons.get(row.id) ?? undefined,
        },
        deps,
        opts.withLink ?? true,
      ),
    );
  }
  return out;
}

export async function presentCustomer(db: Db, deps: PresentDeps, row: CustomerRow, opts: PresentOptions = {}): Promise<Customer> {
  return (await presentCustomers(db, deps, [row], opts))[0]!;
}

/** A customer as event rows (and so webhooks and `GET /v2/events`) carry it: everything but the verification link. */
export async function presentCustomerEvent(db: Db, deps: PresentDeps, row: CustomerRow): Promise<CustomerEvent> {
  return (await presentCustomers(db, deps, [row], { withLink: false }))[0]!;
}

function presentWith(row: CustomerRow, x: Extras, deps: PresentDeps, withLink: boolean): Customer {
  const snap = x.snapshot;
  const link = withLink ? verificationLink(deps, row) : undefined;
  return {
    id: row.id,
    type: row.type,
    ...(row.type === 'INDIVIDUAL' ? { name: row.name ?? '', birthDate: row.birthDate ?? undefined } : {}),
    ...(row.type === 'BUSINESS' ? { legalName: row.legalName ?? '', incorporationDate: row.incorporationDate ?? undefined } : {}),
    taxId: row.taxId,
    ...(row.country ? { country: row.country } : {}),
    ...(row.email ? { email: row.email } : {}),
    ...(row.externalUserId ? { externalUserId: row.externalUserId } : {}),
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
    verification: verificationOf(row, link, x.statusReason),
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

/**
 * The customer as the hosted verification page sees it (`/verify/api`), whose only credential is a link that may have
 * been forwarded: what the page shows and nothing more (no tax id, birth date, address, wallets, metadata). Once the
 * verification is decided, the outcome alone.
 */
export interface HostedCustomer {
  id: string;
  type: Customer['type'];
  name?: string;
  legalName?: string;
  verification: { status: Customer['verification']['status']; level: 'STANDARD' };
  requirements: Customer['requirements'];
}

export async function presentHostedCustomer(db: Db, deps: PresentDeps, row: CustomerRow): Promise<HostedCustomer> {
  const verification = { status: row.verificationStatus, level: 'STANDARD' as const };
  if (isDecided(row.verificationStatus)) return { id: row.id, type: row.type, verification, requirements: [] };
  const c = (await presentCustomers(db, deps, [row], { withLink: false }))[0]!;
  return { id: c.id, type: c.type, ...(c.name ? { name: c.name } : {}), ...(c.legalName ? { legalName: c.legalName } : {}), verification, requirements: c.requirements };
}

/** A document as the hosted page's uploader shows it: no content type, size or hash. */
export function presentHostedDocument(d: DocumentRow): Pick<Document, 'id' | 'type' | 'side' | 'associatedPartyId' | 'status' | 'comment' | 'rejectLabels' | 'fileName' | 'createdAt'> {
  const { id, type, side, associatedPartyId, status, comment, rejectLabels, fileName, createdAt } = presentDocument(d);
  return { id, type, side, associatedPartyId, status, comment, rejectLabels, fileName, createdAt };
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
    if (p.verificationStatus === 'APPROVED') return 'APPROVED';
    // Newest first; a two-sided type counts once both of its sides are in.
    const sorted = mine.filter((d) => types.includes(d.type)).sort((a, b) => (a.id < b.id ? 1 : -1));
    const complete = sorted.find((d) => !TWO_SIDED_TYPES.includes(d.type) || (['FRONT_SIDE', 'BACK_SIDE'] as const).every((side) => sorted.some((x) => x.type === d.type && x.side === side)));
    const rejected = sorted.find((d) => d.status === 'REJECTED');
    return complete ? complete.status : rejected ? rejected.status : 'NOT_SENT';
  };
  const requirements =
    p.type === 'INDIVIDUAL'
      ? [{ name: IDENTITY_REQUIREMENT, status: status(IDENTITY_DOCUMENT_TYPES), acceptedTypes: [...IDENTITY_DOCUMENT_TYPES] }]
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

/** A webhook endpoint; its secret only when just created or rotated. */
export function presentWebhookEndpoint(row: import('../store/queries/webhooks').WebhookEndpointRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events ?? null,
    enabled: row.enabled,
    disabledReason: row.enabled ? null : row.disabledReason,
    disabledAt: row.enabled || !row.disabledAt ? null : row.disabledAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    previousSecretExpiresAt: row.previousSecret && row.previousSecretExpiresAt ? row.previousSecretExpiresAt.toISOString() : null,
  };
}

/** One line of an endpoint's delivery log. */
export function presentWebhookAttempt(row: import('../store/queries/webhooks').WebhookAttemptRow) {
  return {
    attemptId: row.id,
    deliveryId: row.deliveryId,
    eventId: row.eventId,
    eventType: row.eventType,
    attempt: row.attempt,
    statusCode: row.statusCode,
    durationMs: row.durationMs,
    error: row.error,
    succeeded: row.succeeded,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}
