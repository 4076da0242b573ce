// The associated-parties step of a business: the ownership tree so far, and the form that adds a UBO, shareholder or representative.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { ProblemError } from '../../client/bff-client';
import type { AssociatedParty } from '../../contract/kyc';
import { addressFields, type AddressField } from './address-fields';
import { refitTaxId, taxIdTyped } from './format';
import { FormStep } from './form-step';
import { checkboxGroup } from './checkbox-group';
import { dateInput, taxIdInput, textInput, type Wiring } from './form-parts';
import {
  allowedRoles,
  canHaveShareholders,
  emptyParty,
  ownershipOver,
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
  type PartyValues,
  type Role,
} from './parties';
import { PartyRemoval } from './party-removal';
import { backButton } from './back-button';
import { labelKeys, ownershipTotalText, partyErrorText, renderParty, type PartyActions } from './party-views';
import { alertFor, describedBy, fieldShell, renderRequestAlert, type FieldShell } from './step-context';

type TextKey = Exclude<PartyField, 'roles'>;

export class PartiesStep extends FormStep<PartyField, PartyError> {
  private values: PartyValues | undefined;
  private continueError = false;
  private readonly removal = new PartyRemoval(this.ctx);

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

  /** What the tree offers beside each party: nothing while the form is open; corrections while they are allowed. */
  private treeActions(): PartyActions | undefined {
    if (this.values) return undefined;
    const confirm = (p: AssociatedParty) => (this.removal.pending === p.id ? this.removal.render(p, (q) => void this.remove(q)) : undefined);
    return { editable: this.editable, edit: (p) => void this.edit(p), remove: (p) => void this.removal.ask(p), confirm, addNested: (id) => void this.open(id) };
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
              ${partyTree(parties).map((node) => renderParty(this.ctx, node, this.treeActions()))}
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
          ${backButton(this.ctx, 'parties')}
          <button part="submit" class="primary" type="button" data-testid="parties-continue" @click=${() => void this.continue()}>
            ${this.ctx.t('kyc.continue')}
          </button>
        </div>
      </section>
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
        ${addressFields(this.ctx, {
          legend: this.ctx.t('parties.address.legend'),
          shell: (field: AddressField) => this.shell(field, this.ctx.t(labelKeys[field])),
          value: (field: AddressField) => values.text[field],
          countryAutocomplete: false,
          onText: this.onText,
          onCountry: this.onCountry,
          onBlur: this.onBlur,
        })}
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
    const allowed: readonly string[] = allowedRoles(values.type, false);
    return checkboxGroup({
      id: partyId('roles'),
      field: 'roles',
      name: 'party-role',
      legend: this.ctx.t('parties.roles.legend'),
      hint: values.type === 'BUSINESS' ? this.ctx.t('parties.role.individualOnly') : this.ctx.t('info.listHint'),
      hintPart: false,
      error: this.visibleError('roles'),
      options: ROLES,
      label: (role) => this.ctx.t(`parties.role.${role as Role}`),
      boxTestid: (role) => `party-role-${role}`,
      checked: (role) => (values.roles as readonly string[]).includes(role),
      disabled: (role) => !allowed.includes(role),
      onChange: this.onRole,
    });
  }

  private shell(field: PartyField, label: string, hint?: string): FieldShell {
    return { id: partyId(field), field, label, error: this.visibleError(field), hint };
  }

  /** A control's wiring to the form (every field of a party is required). */
  private wiring(f: FieldShell, value: string, onInput: (event: InputEvent) => void = this.onText): Wiring {
    return { id: f.id, name: f.field, required: true, invalid: Boolean(f.error), describedBy: describedBy(f), value: live(value), onInput, onBlur: this.onBlur };
  }

  private renderOwnership(values: PartyValues): TemplateResult {
    const f = this.shell('ownershipPercentage', this.ctx.t('parties.ownership'), this.ctx.t('parties.ownership.hint'));
    return fieldShell(this.ctx, f, textInput(this.wiring(f, values.text.ownershipPercentage), { inputmode: 'decimal', autocomplete: 'off', maxlength: 6 }));
  }

  private textField(values: PartyValues, field: 'name' | 'legalName' | 'email'): TemplateResult {
    const f = this.shell(field, this.ctx.t(labelKeys[field]));
    const email = field === 'email';
    return fieldShell(
      this.ctx,
      f,
      textInput(this.wiring(f, values.text[field]), {
        type: email ? 'email' : 'text',
        inputmode: email ? 'email' : undefined,
        autocomplete: 'off',
        spellcheck: email ? 'false' : undefined,
        maxlength: email ? 254 : 200,
      }),
    );
  }

  private taxIdField(values: PartyValues): TemplateResult {
    const kind = partyTaxIdKind(values);
    const f = this.shell('taxId', this.ctx.t(`field.taxId.${kind}`), this.ctx.t(`field.taxId.${kind}.hint`));
    return fieldShell(this.ctx, f, taxIdInput(this.wiring(f, values.text.taxId, this.onTaxId), kind));
  }

  private dateField(values: PartyValues, field: 'birthDate' | 'incorporationDate'): TemplateResult {
    const f = this.shell(field, this.ctx.t(labelKeys[field]));
    return fieldShell(this.ctx, f, dateInput(this.wiring(f, values.text[field])));
  }

  // ── errors ──

  protected errors(): Partial<Record<PartyField, PartyError>> {
    return this.values ? validateParty(this.values, this.ctx.parties, new Date(), this.ctx.locale) : {};
  }

  protected shownFields(): readonly PartyField[] {
    return this.values ? partyFieldsFor(this.values) : [];
  }

  protected label(field: PartyField): string {
    return this.ctx.t(labelKeys[field]);
  }

  protected errorText(field: PartyField, error: PartyError): string {
    const over = error === 'ownershipTotal' && this.values ? ownershipOver(this.values, this.ctx.parties, this.ctx.locale) : undefined;
    return over ? ownershipTotalText(this.ctx, over) : partyErrorText(this.ctx, field, error);
  }

  // ── input ──

  private set(values: PartyValues, changed?: PartyField): void {
    this.values = values;
    if (changed) this.clearServerError(changed);
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
    const values = this.values!;
    const taxId = taxIdTyped(event, partyTaxIdKind(values), values.text.taxId, this.ctx.renderRoot as ShadowRoot);
    this.set({ ...values, text: { ...values.text, taxId } }, 'taxId');
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
    if (!this.values || !partyFieldsFor(this.values).includes(field)) return;
    this.touch(field);
  };

  // ── actions ──

  async open(parentId?: string): Promise<void> {
    await this.openForm(emptyParty(parentId, this.ctx.customer?.country ?? 'BRA'));
  }

  private async openForm(values: PartyValues): Promise<void> {
    this.values = values;
    this.startOver();
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
    await this.openForm(partyValues(party, this.ctx.locale));
  }

  async remove(party: AssociatedParty): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.alert = undefined;
    this.removal.pending = undefined;
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
      await this.ctx.focus(`[data-testid="remove-${party.id}"]`);
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

  protected async focusField(field: PartyField): Promise<void> {
    await this.ctx.focus(field === 'roles' ? `#${partyId('roles')}-0` : `#${partyId(field)}`);
  }

  async save(): Promise<void> {
    if (this.busy || !this.values) return;
    const wrong = this.firstInvalid();
    if (wrong) return this.focusField(wrong);
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
    await this.failed(error, placePartyProblems, 'createAssociatedParty');
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
