// What <ramp-document-uploader> loads and shows: the owner's (customer's or party's) requirements, country and optional types, its documents.
import { NetworkError, ProblemError, type BffClient } from '../../client/bff-client';
import type { Document, DocumentType } from '../../contract/kyc';
import type { RampErrorDetail } from '../../events/error';
import { isDocumentRequirement, optionalTypesFor, parseTypes, requirementOf, type RequirementLike } from './requirements';

/** The requirement name the optional documents' uploads are filed under (no requirement of the API has it). */
export const OPTIONAL = 'OPTIONAL';

export interface Owner {
  requirements: RequirementLike[];
  country: string | undefined;
  /** Optional document types that apply (none for a party). */
  optional: DocumentType[];
  /** Its documents, newest first. */
  documents: Document[];
}

/** The customer (`partyId` null) or one of its associated parties, with the documents sent for it. */
export async function loadOwner(client: BffClient, partyId: string | null, signal: AbortSignal): Promise<Owner> {
  const [owner, documents] = await Promise.all([
    partyId
      ? client.listAssociatedParties({ signal }).then((page) => {
          const party = page.data.find((p) => p.id === partyId);
          return { requirements: party?.requirements ?? [], country: party?.address.country, optional: [] as DocumentType[] };
        })
      : client.getCustomer({ signal }).then((c) => ({ requirements: c.requirements, country: c.country, optional: optionalTypesFor(c) })),
    client.listDocuments({ signal }).then((page) => page.data.filter((d) => (d.associatedPartyId ?? null) === partyId)),
  ]);
  return { ...owner, documents };
}

/** The `ramp-error` a failed load reports. */
export function loadFailure(error: unknown): RampErrorDetail {
  return {
    code: error instanceof ProblemError ? error.code : error instanceof NetworkError ? 'NETWORK_ERROR' : 'CLIENT_ERROR',
    status: error instanceof ProblemError ? error.status : null,
    detail: error instanceof Error ? error.message : String(error),
    ...(error instanceof ProblemError && error.requestId ? { requestId: error.requestId } : {}),
    operation: 'loadDocuments',
  };
}

/** The requirements shown: the document ones, or those named in `types` (named but not required: shown as not sent). */
export function shownRequirements(types: string, requirements: readonly RequirementLike[], documents: readonly Document[]): RequirementLike[] {
  const wanted = parseTypes(types)?.map(requirementOf);
  if (!wanted) return requirements.filter((r) => isDocumentRequirement(r.name));
  return [...new Set(wanted)]
    .filter(isDocumentRequirement)
    .map((name) => requirements.find((r) => r.name === name) ?? { name, status: derivedStatus(name, documents) });
}

/** A requirement the customer does not have: the status of its newest document, else not sent. */
function derivedStatus(name: string, documents: readonly Document[]): string {
  const docs = documents.filter((d) => requirementOf(d.type) === name);
  if (docs.length === 0) return 'NOT_SENT';
  return docs[0]!.status;
}
