// Rows → the response shapes of the contract. Each takes the executor it reads with, so it works inside a transaction too.
import type { Customer } from '../../src/contract/customers';
import type { AssociatedParty, Document, Verification } from '../../src/contract/kyc';
import type { TransactionLimits } from '../domain/limits';
import { STABLECOINS } from '../domain/money';
import { addressExplorerUrl } from '../domain/wallets';
import { deriveRequirements, IDENTITY_DOCUMENT_TYPES, IDENTITY_REQUIREMENT, TWO_SIDED_TYPES } from '../domain/requirements';
import { BUSINESS_PARTY_DOCUMENTS, isDecided } from '../domain/verification';
import { buildKycSnapshots, type KycSnapshot } from '../flows/kyc-state';
import type { Db } from '../store/db';
import type { PartyRow } from '../store/queries/associated-parties';
import type { CustomerRow } from '../store/queries/customers';
import type { DocumentRow } from '../store/queries/documents';
import { latestStatusReasons, type VerificationRow } from '../store/queries/verifications';
import { limitSetWith } from '../flows/limits';
import { limitWindows, transactionLimits } from '../domain/limits';
import { type CustomerParts, getCustomerWithParts, loadCustomerParts } from '../store/queries/customer-parts';
import type { WalletRow } from '../store/queries/wallets';
import type { Deps } from '../http/deps';

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

/** A customer read (GET /customers/{id}): the row and everything it shows in one statement; undefined when the partner has no such customer. */
export async function readCustomer(db: Db, deps: PresentDeps, partnerId: string, id: string, opts: PresentOptions = {}): Promise<Customer | undefined> {
  const found = await getCustomerWithParts(db, partnerId, id, partsOptions(deps, opts));
  return found && (await presentCustomers(db, deps, [found.row], opts, found.parts))[0]!;
}

/**
 * A customer read as its JSON answer (`GET /v2/customers/{id}`). Reads that share a statement get one row object from
 * the coalescer, and share one presented and serialised customer too: the text either side of the link, made once per
 * row object, when a second read of it comes. Each read still gets a link of its own, minted for it and spliced in
 * (issue 9: a fresh link on every read).
 * Presenting and `JSON.stringify` were ~10 % of a read's CPU when all clients read one customer (issue 14).
 */
export async function readCustomerJson(db: Db, deps: PresentDeps, partnerId: string, id: string, opts: PresentOptions = {}): Promise<JsonText<Customer> | undefined> {
  const found = await getCustomerWithParts(db, partnerId, id, partsOptions(deps, opts));
  if (!found) return undefined;
  // A row object answers reads of one shape only: the coalescer's group names the balances and the limit windows.
  const shared = serialised.get(found);
  if (!shared) {
    // The first read of the row is presented and serialised whole, with its own link, as any read was; the presented
    // customer is kept for the reads that turn out to share the row (most rows have one read, and no texts are made).
    const presented = presentCustomers(db, deps, [found.row], opts, found.parts).then((customers) => customers[0]!);
    serialised.set(found, { presented });
    return JSON.stringify(await presented);
  }
  // Once made, the texts themselves are kept, and the later reads of the row take them without waiting on a promise.
  const around = (shared.around ??= shared.presented.then(aroundLink).then((texts) => (shared.around = texts)));
  const { head, tail } = 'then' in around ? await around : around;
  return `${head}${JSON.stringify(verificationLink(deps, found.row))}${tail}`;
}

/** The JSON text of a `T`, as a presenter serialised it (the type says what it holds; the text is a plain string). */
export type JsonText<T> = string & { readonly jsonOf?: T };

/** Per row object the store answered: the presented customer, and the texts around a link. */
const serialised = new WeakMap<object, { presented: Promise<Customer>; around?: Promise<Around> | Around }>();
type Around = { head: string; tail: string };

/**
 * The customer's JSON as two texts that a link goes between (`head` ends with `"link":`, `tail` follows its value),
 * whatever link the presented customer had. Built from its own keys, in their order, so each answer is the one
 * `JSON.stringify` of the customer with that link gives (no search in the text, which holds the partner's and the
 * customer's own strings).
 */
function aroundLink(customer: Customer): Around {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  let seen = false;
  for (const [key, value] of Object.entries(customer)) {
    if (key === 'verification') seen = true;
    else (seen ? after : before)[key] = value;
  }
  const { statusReason, link: _, ...verification } = customer.verification;
  const head = `${JSON.stringify(before).slice(0, -1)},"verification":${JSON.stringify(verification).slice(0, -1)},"link":`;
  const tail = `${statusReason ? `,"statusReason":${JSON.stringify(statusReason)}` : ''}},${JSON.stringify(after).slice(1)}`;
  return { head, tail };
}

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
export async function presentCustomerEvent(db: Db, deps: PresentDeps, row: CustomerRow): Promise<Omit<Customer, 'verification'> & { verification: Omit<Customer['verification'], 'link'> }> {
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
    verification: { status: row.verificationStatus, level: 'STANDARD', ...(link ? { link } : {}), ...(x.statusReason ? { statusReason: x.statusReason } : {}) } as Customer['verification'],
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
