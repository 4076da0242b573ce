// Removing a party asks first: its line turns into the question with Cancel and Remove, and focus follows.
import { html, type TemplateResult } from 'lit';
import type { AssociatedParty } from '../../contract/kyc';
import { partyName } from './parties';
import type { StepContext } from './step-context';

export class PartyRemoval {
  /** The party whose removal is being asked about. */
  pending: string | undefined;

  constructor(private readonly ctx: StepContext) {}

  /** Focus goes to Cancel: the choice that loses nothing is the one a stray Enter makes. */
  async ask(party: AssociatedParty): Promise<void> {
    this.pending = party.id;
    this.ctx.host.requestUpdate();
    await this.ctx.focus(`[data-testid="cancel-remove-${party.id}"]`);
  }

  async cancel(party: AssociatedParty): Promise<void> {
    this.pending = undefined;
    this.ctx.host.requestUpdate();
    await this.ctx.focus(`[data-testid="remove-${party.id}"]`);
  }

  render(party: AssociatedParty, remove: (party: AssociatedParty) => void): TemplateResult {
    const name = partyName(party);
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      void this.cancel(party);
    };
    return html`<div class="party-actions" role="group" aria-labelledby="confirm-remove-${party.id}" data-testid="confirm-remove-${party.id}" @keydown=${onKey}>
      <span id="confirm-remove-${party.id}">${this.ctx.t('parties.removeConfirm', { name })}</span>
      <button type="button" class="link" data-testid="cancel-remove-${party.id}" @click=${() => void this.cancel(party)}>${this.ctx.t('parties.cancel')}</button>
      <button type="button" class="link" data-testid="really-remove-${party.id}" aria-label=${this.ctx.t('parties.removeLabel', { name })} @click=${() => remove(party)}>
        ${this.ctx.t('parties.remove')}
      </button>
    </div>`;
  }
}
