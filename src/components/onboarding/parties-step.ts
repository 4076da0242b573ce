// The associated-parties step of a business: the ownership tree so far, and the form that adds a UBO, shareholder or representative.
import type { FieldProblemKey } from '../../i18n/problem-words';
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { ProblemError } from '../../client/bff-client';
import { IdempotencyKeys } from '../../client/idempotency';
import { ADULT_AGE, isoDay } from '../../contract/customer-rules';
import type { AssociatedParty } from '../../contract/kyc';
import type { PlainMessageKey } from '../kyc-labels';
import { countryOptions } from './countries';
import { refitTaxId, reformatTaxId, taxIdMaxLength } from './format';
import {
  allowedRoles,
  canHaveShareholders,
  emptyParty,
  partyFieldsFor,
  partyId,
  partyName,
  partyTaxIdKind,
  partyTree,
  partyValues,
  placePartyProblems,
  toPartyRequest,
  validateParty,
  ROLES,
  type PartyError,
  type PartyField,
  type PartyNode,
  type PartyValues,
  type Role,
} from './parties';
import { alertFor, describedBy, fieldShell, renderRequestAlert, type RequestAlert, type StepContext } from './step-context';

type TextKey = Exclude<PartyField, 'roles'>;

const labelKeys: Readonly<Record<PartyField, PlainMessageKey>> = {
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

export class PartiesStep {
  private values: PartyValues | undefined;
  private touched = new Set<PartyField>();
  private submitted = false;
  private serverErrors: Partial<Record<PartyField, FieldProblemKey>> = {};
  private alert: RequestAlert | undefined;
  private busy = false;
  private continueError = false;
  private readonly keys = new IdempotencyKeys();

  constructor(private readonly ctx: StepContext) {}

  private update(): void {
    this.ctx.host.requestUpdate();
  }

  /** Whether the add form is open. */
  get editing(): boolean {
    return this.values !== undefined;
  }

  /** Parties can be corrected and removed until the verification is under way (the API says 409 afterwards). */
  private get editable(): boolean {
    const status = this.ctx.customer?.verification.status;
    return status === undefined || status === 'NOT_STARTED' || status === 'TEMPORARY_REJECTION';
  }

  private parentOf(values: PartyValues): AssociatedParty | undefined {
    return values.parentId ? this.ctx.parties.find((p) => p.id === values.parentId) : undefined;
  }

  // ── rendering ──

  render(): TemplateResult {
    const parties = this.ctx.parties;
    return html`
      <section class="kyc-step" data-step="parties" aria-labelledby="step-title">
        <h3 id="step-title" part="step-title" class="step-title" tabindex="-1">${this.ctx.t('parties.title')}</h3>
        <p part="intro" class="intro">${this.ctx.t('parties.intro')}</p>
        ${parties.length
          ? html`<ul part="parties" class="parties" data-testid="parties" aria-label=${this.ctx.t('parties.listLabel')}>
              ${partyTree(parties).map((node) => this.renderNode(node))}
            </ul>`
          : html`<p class="muted" data-testid="parties-empty">${this.ctx.t('parties.empty')}</p>`}
        ${this.values ? nothing : renderRequestAlert(this.ctx, this.alert)}
        ${this.values
          ? this.renderForm(this.values)
          : html`<div class="actions start">
              <button type="button" part="add-party" data-testid="add-party" @click=${() => void this.open()}>${this.ctx.t('parties.add')}</button>
            </div>`}
        ${this.continueError
          ? html`<p part="error" class="error" role="alert" data-testid="parties-continue-error">${this.ctx.t('parties.error.none')}</p>`
          : nothing}
        <div part="actions" class="actions">
          <button part="submit" class="primary" type="button" data-testid="parties-continue" @click=${() => void this.continue()}>
            ${this.ctx.t('kyc.continue')}
          </button>
        </div>
      </section>
    `;
  }

  private renderNode(node: PartyNode): TemplateResult {
    const p = node.party;
    const name = partyName(p);
    const pct = p.ownershipPercentage
      ? new Intl.NumberFormat(this.ctx.locale, { style: 'percent', maximumFractionDigits: 2 }).format(Number(p.ownershipPercentage) / 100)
      : '';
    return html`
      <li part="party" class="party" data-testid="party" data-party-id=${p.id} data-type=${p.type}>
        <div class="party-line">
          <span class="party-name">${name}</span>
          <span class="muted">${this.ctx.t(p.type === 'INDIVIDUAL' ? 'parties.type.INDIVIDUAL' : 'parties.type.BUSINESS')}</span>
          <span class="muted">${p.roles.map((r) => this.ctx.t(`parties.role.${r}`)).join(', ')}</span>
          ${pct ? html`<span class="badge">${pct}</span>` : nothing}
        </div>
        ${!this.values && this.editable
          ? html`<div class="party-actions">
              <button type="button" class="link" data-testid="edit-${p.id}" aria-label=${this.ctx.t('parties.editLabel', { name })} @click=${() => void this.edit(p)}>
                ${this.ctx.t('parties.edit')}
              </button>
              <button type="button" class="link" data-testid="remove-${p.id}" aria-label=${this.ctx.t('parties.removeLabel', { name })} @click=${() => void this.remove(p)}>
                ${this.ctx.t('parties.remove')}
              </button>
            </div>`
          : nothing}
        ${canHaveShareholders(p) && !this.values
          ? html`<button type="button" class="link" data-testid="add-nested-${p.id}" @click=${() => void this.open(p.id)}>
              ${this.ctx.t('parties.addNested', { name })}
            </button>`
          : nothing}
        ${node.children.length ? html`<ul class="parties nested">${node.children.map((c) => this.renderNode(c))}</ul>` : nothing}
      </li>
    `;
  }

  private renderForm(values: PartyValues): TemplateResult {
    const parent = this.parentOf(values);
    const nested = Boolean(values.parentId);
    const shown = partyFieldsFor(values);
    return html`
      <form part="party-form" class="party-form" novalidate data-testid="party-form" aria-labelledby="party-form-title" @submit=${this.onSubmit}>
        <div role="heading" aria-level="4" id="party-form-title" class="form-title" tabindex="-1">
          ${values.editingId
            ? this.ctx.t('parties.form.titleEdit', { name: this.editedName(values.editingId) })
            : parent
              ? this.ctx.t('parties.form.titleNested', { name: partyName(parent) })
              : this.ctx.t('parties.form.title')}
        </div>
        ${renderRequestAlert(this.ctx, this.alert, () => void this.save())}
        <fieldset part="type-group" class="group">
          <legend>${this.ctx.t('parties.type.legend')}</legend>
          <div class="choices">
            ${(['INDIVIDUAL', 'BUSINESS'] as const).map(
              (type) => html`
                <label class="choice" part="type-option">
                  <input type="radio" name="party-type" value=${type} data-testid="party-type-${type}" .checked=${live(values.type === type)} ?disabled=${Boolean(values.editingId) && values.type !== type} @change=${this.onType} />
                  <span>${this.ctx.t(`parties.type.${type}`)}</span>
                </label>
              `,
            )}
          </div>
        </fieldset>
        ${nested ? html`<p class="hint" data-testid="nested-note">${this.ctx.t('parties.nestedRole', { name: partyName(parent!) })}</p>` : this.renderRoles(values)}
        ${shown.includes('ownershipPercentage') ? this.renderOwnership(values) : nothing}
        ${values.type === 'INDIVIDUAL' ? this.textField(values, 'name') : this.textField(values, 'legalName')}
        <div class="grid two">
          ${this.taxIdField(values)} ${values.type === 'INDIVIDUAL' ? this.dateField(values, 'birthDate') : this.dateField(values, 'incorporationDate')}
        </div>
        ${this.textField(values, 'email')}
        <fieldset part="group address" class="group">
          <legend>${this.ctx.t('parties.address.legend')}</legend>
          ${this.countryField(values)} ${this.textField(values, 'address.line1')}
          <div class="grid three">
            ${this.textField(values, 'address.city')} ${this.textField(values, 'address.state')} ${this.textField(values, 'address.postalCode')}
          </div>
        </fieldset>
        <div class="actions">
          <button type="button" data-testid="party-cancel" @click=${() => void this.close()}>${this.ctx.t('parties.cancel')}</button>
          <button type="submit" class="primary" data-testid="party-save" aria-disabled=${this.busy ? 'true' : 'false'}>
            ${this.busy ? this.ctx.t('parties.saving') : values.editingId ? this.ctx.t('parties.update') : this.ctx.t('parties.save')}
          </button>
        </div>
      </form>
    `;
  }

  private renderRoles(values: PartyValues): TemplateResult {
    const allowed = allowedRoles(values.type, false);
    const error = this.visibleError('roles');
    const id = partyId('roles');
    return html`
      <fieldset part="group field-roles" class="group" id=${id} aria-describedby=${[`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}>
        <legend>${this.ctx.t('parties.roles.legend')}</legend>
        <p id="${id}-hint" class="hint">
          ${values.type === 'BUSINESS' ? this.ctx.t('parties.role.individualOnly') : this.ctx.t('info.listHint')}
        </p>
        <div class="choices">
          ${ROLES.map(
            (role, i) => html`
              <label class="choice" part="choice">
                <input
                  type="checkbox"
                  id="${id}-${i}"
                  name="party-role"
                  value=${role}
                  data-testid="party-role-${role}"
                  ?disabled=${!allowed.includes(role)}
                  .checked=${live(values.roles.includes(role))}
                  @change=${this.onRole}
                />
                <span>${this.ctx.t(`parties.role.${role}`)}</span>
              </label>
            `,
          )}
        </div>
        ${error ? html`<p id="${id}-error" part="error" class="error" data-testid="${id}-error">${error}</p>` : nothing}
      </fieldset>
    `;
  }

  private shell(field: PartyField, label: string, hint?: string) {
    return { id: partyId(field), field, label, error: this.visibleError(field), hint };
  }

  private renderOwnership(values: PartyValues): TemplateResult {
    const f = this.shell('ownershipPercentage', this.ctx.t('parties.ownership'), this.ctx.t('parties.ownership.hint'));
    return fieldShell(
      this.ctx,
      f,
      html`<input
        id=${f.id}
        name="ownershipPercentage"
        part="input"
        type="text"
        inputmode="decimal"
        autocomplete="off"
        maxlength="6"
        required
        aria-invalid=${f.error ? 'true' : 'false'}
        aria-describedby=${describedBy(f)}
        .value=${live(values.text.ownershipPercentage)}
        @input=${this.onText}
        @blur=${this.onBlur}
      />`,
    );
  }

  private textField(values: PartyValues, field: TextKey): TemplateResult {
    const f = this.shell(field, this.ctx.t(labelKeys[field]));
    const type = field === 'email' ? 'email' : 'text';
    const auto: Partial<Record<TextKey, string>> = {
      'address.line1': 'address-line1',
      'address.city': 'address-level2',
      'address.state': 'address-level1',
      'address.postalCode': 'postal-code',
    };
    return fieldShell(
      this.ctx,
      f,
      html`<input
        id=${f.id}
        name=${field}
        part="input"
        type=${type}
        inputmode=${field === 'email' ? 'email' : nothing}
        autocomplete=${auto[field] ?? 'off'}
        spellcheck=${field === 'email' ? 'false' : nothing}
        maxlength=${field === 'email' ? 254 : 200}
        required
        aria-invalid=${f.error ? 'true' : 'false'}
        aria-describedby=${describedBy(f)}
        .value=${live(values.text[field])}
        @input=${this.onText}
        @blur=${this.onBlur}
      />`,
    );
  }

  private taxIdField(values: PartyValues): TemplateResult {
    const kind = partyTaxIdKind(values);
    const f = this.shell('taxId', this.ctx.t(`field.taxId.${kind}`), this.ctx.t(`field.taxId.${kind}.hint`));
    return fieldShell(
      this.ctx,
      f,
      html`<input
        id=${f.id}
        name="taxId"
        part="input"
        type="text"
        inputmode=${kind === 'cpf' ? 'numeric' : 'text'}
        autocomplete="off"
        autocapitalize="characters"
        spellcheck="false"
        maxlength=${taxIdMaxLength[kind]}
        required
        aria-invalid=${f.error ? 'true' : 'false'}
        aria-describedby=${describedBy(f)}
        .value=${live(values.text.taxId)}
        @input=${this.onTaxId}
        @blur=${this.onBlur}
      />`,
    );
  }

  private dateField(values: PartyValues, field: 'birthDate' | 'incorporationDate'): TemplateResult {
    const f = this.shell(field, this.ctx.t(labelKeys[field]));
    return fieldShell(
      this.ctx,
      f,
      html`<input
        id=${f.id}
        name=${field}
        part="input"
        type="date"
        min="1900-01-01"
        max=${isoDay(new Date())}
        required
        aria-invalid=${f.error ? 'true' : 'false'}
        aria-describedby=${describedBy(f)}
        .value=${live(values.text[field])}
        @input=${this.onText}
        @change=${this.onText}
        @blur=${this.onBlur}
      />`,
    );
  }

  private countryField(values: PartyValues): TemplateResult {
    const f = this.shell('address.country', this.ctx.t('info.address.country'));
    const value = values.text['address.country'];
    return fieldShell(
      this.ctx,
      f,
      html`<select
        id=${f.id}
        name="address.country"
        part="select"
        required
        aria-invalid=${f.error ? 'true' : 'false'}
        aria-describedby=${describedBy(f)}
        @change=${this.onCountry}
        @blur=${this.onBlur}
      >
        <option value="" ?selected=${!value}>${this.ctx.t('field.country.placeholder')}</option>
        ${countryOptions(this.ctx.locale).map((c) => html`<option value=${c.code} ?selected=${c.code === value}>${c.name}</option>`)}
      </select>`,
    );
  }

  // ── errors ──

  private errors(): Partial<Record<PartyField, PartyError>> {
    return this.values ? validateParty(this.values, this.ctx.parties, new Date(), this.ctx.locale) : {};
  }

  private visibleError(field: PartyField): string | undefined {
    const server = this.serverErrors[field];
    if (server) return this.ctx.t(server);
    if (!this.submitted && !this.touched.has(field)) return undefined;
    const error = this.errors()[field];
    if (!error) return undefined;
    switch (error) {
      case 'chooseRole':
        return this.ctx.t('parties.error.chooseRole');
      case 'ownershipRange':
        return this.ctx.t('parties.error.ownershipRange');
      case 'ownershipTotal':
        return this.ctx.t('parties.error.ownershipTotal');
      case 'underage':
        return this.ctx.t('error.underage', { age: ADULT_AGE });
      case 'required':
        return field === 'address.country' ? this.ctx.t('error.required.country') : this.ctx.t('error.required');
      default:
        return this.ctx.t(`error.${error}`);
    }
  }

  // ── input ──

  private set(values: PartyValues, changed?: PartyField): void {
    this.values = values;
    if (changed && this.serverErrors[changed]) {
      const { [changed]: _gone, ...rest } = this.serverErrors;
      this.serverErrors = rest;
    }
    this.update();
  }

  private onType = (event: Event): void => {
    const values = this.values!;
    const type = (event.target as HTMLInputElement).value as PartyValues['type'];
    const roles = values.roles.filter((r) => allowedRoles(type, Boolean(values.parentId)).includes(r));
    // A CPF is no CNPJ: the tax id starts over with the type.
    this.set({ ...values, type, roles: values.parentId ? ['SHAREHOLDER'] : roles, text: { ...values.text, taxId: '' } });
  };

  private onRole = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const values = this.values!;
    const role = input.value as Role;
    const roles = input.checked ? [...values.roles.filter((r) => r !== role), role] : values.roles.filter((r) => r !== role);
    // Keep the page order of roles, whatever the order they were ticked in.
    this.touched.add('roles');
    this.set({ ...values, roles: ROLES.filter((r) => roles.includes(r)) }, 'roles');
  };

  private onText = (event: Event): void => {
    const input = event.target as HTMLInputElement;
    const field = input.name as TextKey;
    const values = this.values!;
    if (values.text[field] === input.value) return;
    this.set({ ...values, text: { ...values.text, [field]: input.value } }, field);
  };

  private onTaxId = (event: InputEvent): void => {
    const input = event.target as HTMLInputElement;
    const values = this.values!;
    const kind = partyTaxIdKind(values);
    const edit = reformatTaxId(kind, input.value, input.selectionStart ?? input.value.length, values.text.taxId, event.inputType);
    if (input.value !== edit.value) input.value = edit.value;
    if ((this.ctx.renderRoot as ShadowRoot).activeElement === input) input.setSelectionRange(edit.caret, edit.caret);
    this.set({ ...values, text: { ...values.text, taxId: edit.value } }, 'taxId');
  };

  private onCountry = (event: Event): void => {
    const values = this.values!;
    const country = (event.target as HTMLSelectElement).value;
    const next = { ...values, text: { ...values.text, 'address.country': country } };
    next.text.taxId = refitTaxId(partyTaxIdKind(next), values.text.taxId);
    this.touched.add('address.country');
    this.set(next, 'address.country');
  };

  private onBlur = (event: FocusEvent): void => {
    const field = (event.target as HTMLInputElement).name as PartyField;
    if (!this.values || !partyFieldsFor(this.values).includes(field) || this.touched.has(field)) return;
    this.touched.add(field);
    const message = this.visibleError(field);
    if (message && !this.submitted) this.ctx.announce(this.ctx.t('form.fieldError', { field: this.ctx.t(labelKeys[field]), message }));
    this.update();
  };

  // ── actions ──

  async open(parentId?: string): Promise<void> {
    const country = this.ctx.customer?.country ?? 'BRA';
    this.values = emptyParty(parentId, country);
    this.touched = new Set();
    this.submitted = false;
    this.serverErrors = {};
    this.alert = undefined;
    this.continueError = false;
    this.update();
    await this.ctx.focus('#party-form-title');
  }

  private editedName(id: string): string {
    const party = this.ctx.parties.find((p) => p.id === id);
    return party ? partyName(party) : '';
  }

  /** Opens the form on a party already added, to correct it. */
  async edit(party: AssociatedParty): Promise<void> {
    this.values = partyValues(party, this.ctx.locale);
    this.touched = new Set();
    this.submitted = false;
    this.serverErrors = {};
    this.alert = undefined;
    this.continueError = false;
    this.update();
    await this.ctx.focus('#party-form-title');
  }

  async remove(party: AssociatedParty): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.alert = undefined;
    try {
      await this.ctx.client().deleteAssociatedParty(party.id);
      this.busy = false;
      this.ctx.setParties(this.ctx.parties.filter((p) => p.id !== party.id));
      this.ctx.announce(this.ctx.t('parties.removed', { name: partyName(party) }));
      this.update();
      await this.ctx.focus('[data-testid="add-party"]');
    } catch (error) {
      this.busy = false;
      const refused = error instanceof ProblemError && error.status === 409;
      // The server refuses to remove a party with parties under it: say so in the user's words, naming the party.
      this.alert = refused && this.ctx.parties.some((p) => p.parentId === party.id) ? { kind: 'HAS_OWNERS', name: partyName(party) } : alertFor(error);
      if (!refused) this.ctx.report(error, 'deleteAssociatedParty');
      this.update();
    }
  }

  async close(): Promise<void> {
    this.values = undefined;
    this.alert = undefined;
    this.update();
    await this.ctx.focus('[data-testid="add-party"]');
  }

  private onSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.save();
  };

  private invalidFields(): PartyField[] {
    if (!this.values) return [];
    const errors = this.errors();
    return partyFieldsFor(this.values).filter((f) => errors[f] || this.serverErrors[f]);
  }

  private async focusField(field: PartyField): Promise<void> {
    await this.ctx.focus(field === 'roles' ? `#${partyId('roles')}-0` : `#${partyId(field)}`);
  }

  async save(): Promise<void> {
    if (this.busy || !this.values) return;
    this.submitted = true;
    this.alert = undefined;
    const invalid = this.invalidFields();
    if (invalid.length) {
      this.ctx.announce(this.ctx.plural('form.invalid', invalid.length));
      this.update();
      await this.focusField(invalid[0]!);
      return;
    }
    const body = toPartyRequest(this.values, this.ctx.locale);
    const idempotencyKey = this.keys.keyFor(body);
    this.busy = true;
    this.ctx.announce(this.ctx.t('form.sending'));
    this.update();
    try {
      const editingId = this.values.editingId;
      const { type: _type, parentId: _parent, ...correction } = body;
      const party = editingId
        ? await this.ctx.client().updateAssociatedParty(editingId, correction)
        : await this.ctx.client().createAssociatedParty(body, { idempotencyKey });
      this.keys.reset();
      this.busy = false;
      this.values = undefined;
      this.ctx.setParties(editingId ? this.ctx.parties.map((p) => (p.id === party.id ? party : p)) : [...this.ctx.parties.filter((p) => p.id !== party.id), party]);
      this.ctx.announce(this.ctx.t(editingId ? 'parties.updated' : 'parties.added', { name: partyName(party) }));
      this.update();
      // The new party's own "add a shareholder" button, when it can have them; else the add button.
      await this.ctx.focus(canHaveShareholders(party) ? `[data-testid="add-nested-${party.id}"]` : '[data-testid="add-party"]');
    } catch (error) {
      this.busy = false;
      await this.fail(error);
    }
  }

  private async fail(error: unknown): Promise<void> {
    if (error instanceof ProblemError && error.status === 400) {
      const { fields, unplaced } = placePartyProblems(error.errors);
      this.serverErrors = { ...this.serverErrors, ...fields };
      if (unplaced.length || Object.keys(fields).length === 0) this.alert = alertFor(error);
      const invalid = this.invalidFields();
      this.ctx.announce(this.ctx.plural('form.invalid', Math.max(1, invalid.length)));
      this.update();
      if (invalid[0]) await this.focusField(invalid[0]);
      return;
    }
    this.alert = alertFor(error);
    if (!(error instanceof ProblemError && error.status === 409)) this.ctx.report(error, 'createAssociatedParty');
    this.update();
  }

  async continue(): Promise<void> {
    if (this.ctx.parties.length === 0) {
      this.continueError = true;
      this.ctx.announce(this.ctx.t('parties.error.none'));
      this.update();
      await this.ctx.focus(this.values ? '#party-form-title' : '[data-testid="add-party"]');
      return;
    }
    this.continueError = false;
    this.values = undefined;
    await this.ctx.goTo('documents');
  }
}
