// The rules of associated parties: roles by type, ownership for UBOs and shareholders, nesting only for shareholders of business shareholders.
import { Decimal } from 'decimal.js';
import { type FieldIssue, unknownReference } from './errors';

export type Role = 'UBO' | 'SHAREHOLDER' | 'REPRESENTATIVE';

export interface PartyInput {
  type: 'INDIVIDUAL' | 'BUSINESS';
  roles: Role[];
  ownershipPercentage?: string | number;
  parentId?: string;
  name?: string;
  legalName?: string;
  birthDate?: string;
  incorporationDate?: string;
}

export interface ParentInfo {
  type: 'INDIVIDUAL' | 'BUSINESS';
  roles: Role[];
}

/** Returns each broken rule as a field issue; `parent` is the party named by parentId (undefined when not found). */
export function checkParty(p: PartyInput, parent: ParentInfo | undefined, siblingsOwnership: string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const roles = new Set(p.roles);
  if (roles.size !== p.roles.length) issues.push({ path: 'roles', message: 'must not repeat a role', code: 'NOT_UNIQUE' });
  if (p.type === 'BUSINESS' && roles.has('UBO')) issues.push({ path: 'roles', message: 'a UBO is always an individual', code: 'CONFLICTING_FIELDS' });
  if (p.type === 'BUSINESS' && roles.has('REPRESENTATIVE')) issues.push({ path: 'roles', message: 'a REPRESENTATIVE is always an individual', code: 'CONFLICTING_FIELDS' });
  if (p.type === 'INDIVIDUAL') {
    if (!p.name) issues.push({ path: 'name', message: 'is required for an individual', code: 'REQUIRED' });
    if (!p.birthDate) issues.push({ path: 'birthDate', message: 'is required for an individual', code: 'REQUIRED' });
  } else {
    if (!p.legalName) issues.push({ path: 'legalName', message: 'is required for a business', code: 'REQUIRED' });
    if (!p.incorporationDate) issues.push({ path: 'incorporationDate', message: 'is required for a business', code: 'REQUIRED' });
  }

  const owns = roles.has('UBO') || roles.has('SHAREHOLDER');
  const pct = p.ownershipPercentage === undefined ? undefined : new Decimal(String(p.ownershipPercentage));
  if (owns && pct === undefined) issues.push({ path: 'ownershipPercentage', message: 'is required for UBO and SHAREHOLDER', code: 'REQUIRED' });
  if (pct !== undefined && (pct.isNaN() || pct.lt(25) || pct.gt(100))) {
    issues.push({ path: 'ownershipPercentage', message: 'must be between 25 and 100', code: 'INVALID_VALUE' });
  } else if (pct !== undefined && !owns) {
    issues.push({ path: 'ownershipPercentage', message: 'applies only to UBO and SHAREHOLDER', code: 'NOT_ALLOWED' });
  } else if (pct !== undefined && p.roles.includes('SHAREHOLDER')) {
    const total = siblingsOwnership.reduce((sum, s) => sum.plus(s), pct);
    if (total.gt(100)) issues.push({ path: 'ownershipPercentage', message: `shareholders at this level would own ${total.toFixed(2)}%, over 100%`, code: 'ABOVE_MAXIMUM' });
  }

  if (p.parentId !== undefined) {
    if (p.roles.length !== 1 || p.roles[0] !== 'SHAREHOLDER') {
      issues.push({ path: 'roles', message: 'a nested party (parentId) may only be a SHAREHOLDER; UBO and REPRESENTATIVE are top level only', code: 'INVALID_VALUE' });
    }
    if (!parent) throw unknownReference('parentId', 'associated party of this customer');
    else if (parent.type !== 'BUSINESS' || !parent.roles.includes('SHAREHOLDER')) {
      issues.push({ path: 'parentId', message: 'must be a business shareholder', code: 'INVALID_VALUE' });
    }
  }
  return issues;
}
