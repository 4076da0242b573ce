// What the parties step shows besides its form: the ownership tree, each party's line and buttons, and the words of its fields and rules.
import { html, nothing, type TemplateResult } from 'lit';
import { ADULT_AGE } from '../../contract/customer-rules';
import type { AssociatedParty } from '../../contract/kyc';
import type { PlainMessageKey } from '../kyc-labels';
import { canHaveShareholders, partyName, type PartyError, type PartyField, type PartyNode } from './parties';
import { formatBasisPoints, listNames, OWNERSHIP_MIN_PERCENT } from './ownership';
import type { StepContext } from './step-context';

export const labelKeys: Readonly<Record<PartyField, PlainMessageKey>> = {
  roles: 'parties.roles.legend',
  ownershipPercentage: 'parties.ownership',
  name: 'field.name',
  legalName: 'field.legalName',
  taxId: 'field.taxId.other',
  birthDate: 'field.birthDate',
  incorporationDate: 'field.incorporationDate',
  email: 'field.email',
  'address.country': 'info.address.country',
  'address.line1': 'info.address.line1',
  'address.city': 'info.address.city',
  'address.state': 'info.address.state',
  'address.postalCode': 'info.address.postalCode',
};

export function partyErrorText(ctx: StepContext, field: PartyField, error: PartyError): string {
  switch (error) {
    case 'chooseRole':
      return ctx.t('parties.error.chooseRole');
    case 'ownershipRange':
      return ctx.t('parties.error.ownershipRange');
    case 'ownershipBelow':
      return ctx.t('parties.error.ownershipBelow', { min: OWNERSHIP_MIN_PERCENT });
    case 'ownershipTotal':
      return ctx.t('parties.error.ownershipTotal');
    case 'underage':
      return ctx.t('error.underage', { age: ADULT_AGE });
    case 'required':
      return field === 'address.country' ? ctx.t('error.required.country') : ctx.t('error.required');
    default:
      return ctx.t(`error.${error}`);
  }
}

/** Over 100 % at one level: who would share it and the total, so the user knows which percentages to check. */
export function ownershipTotalText(ctx: StepContext, over: { names: readonly string[]; total: number }): string {
  return ctx.t('parties.error.ownershipTotalNamed', { names: listNames(over.names, ctx.locale), total: formatBasisPoints(over.total, ctx.locale) });
}

/** The buttons beside a party, while the form is closed. */
export interface PartyActions {
  /** Parties can be corrected and removed until the verification is under way. */
  editable: boolean;
  edit: (party: AssociatedParty) => void;
  remove: (party: AssociatedParty) => void;
  /** The question that stands in for the buttons while a removal is being confirmed. */
  confirm?: (party: AssociatedParty) => TemplateResult | undefined;
  addNested: (parentId: string) => void;
}

export function renderParty(ctx: StepContext, node: PartyNode, actions: PartyActions | undefined): TemplateResult {
  const p = node.party;
  const name = partyName(p);
  const pct = p.ownershipPercentage
    ? new Intl.NumberFormat(ctx.locale, { style: 'percent', maximumFractionDigits: 2 }).format(Number(p.ownershipPercentage) / 100)
    : '';
  return html`
    <li part="party" class="party" data-testid="party" data-party-id=${p.id} data-type=${p.type}>
      <div class="party-line">
        <span class="party-name">${name}</span>
        <span class="muted">${ctx.t(p.type === 'INDIVIDUAL' ? 'parties.type.INDIVIDUAL' : 'parties.type.BUSINESS')}</span>
        <span class="muted">${p.roles.map((r) => ctx.t(`parties.role.${r}`)).join(', ')}</span>
        ${pct ? html`<span class="badge">${pct}</span>` : nothing}
      </div>
      ${actions?.editable
        ? (actions.confirm?.(p) ?? html`<div class="party-actions">
            <button type="button" class="link" data-testid="edit-${p.id}" aria-label=${ctx.t('parties.editLabel', { name })} @click=${() => actions.edit(p)}>
              ${ctx.t('parties.edit')}
            </button>
            <button type="button" class="link" data-testid="remove-${p.id}" aria-label=${ctx.t('parties.removeLabel', { name })} @click=${() => actions.remove(p)}>
              ${ctx.t('parties.remove')}
            </button>
          </div>`)
        : nothing}
      ${canHaveShareholders(p) && actions
        ? html`<button type="button" class="link" data-testid="add-nested-${p.id}" @click=${() => actions.addNested(p.id)}>
            ${ctx.t('parties.addNested', { name })}
          </button>`
        : nothing}
      ${node.children.length ? html`<ul class="parties nested">${node.children.map((c) => renderParty(ctx, c, actions))}</ul>` : nothing}
    </li>
  `;
}

