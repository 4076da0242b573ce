// The status stepper both money components show: an ordered list of steps, the current one marked for assistive tech.
import { html, nothing, type TemplateResult } from 'lit';
import type { Progress, StepState, TransactionStatus } from './steps';

export interface StepperText {
  /** The list's accessible name, e.g. "Payment progress". */
  heading: string;
  label: (status: TransactionStatus) => string;
  /** Read after each step's label: "completed", "current step", "failed" (nothing for upcoming steps). */
  state: (state: StepState) => string;
}

const icon: Readonly<Record<StepState, string>> = { done: '✓', current: '•', upcoming: '', failed: '✕' };

/** `data-status` and `data-state` on each step let a test or a partner's CSS find a step without reading its text. */
export function renderStepper(progress: Progress, text: StepperText): TemplateResult {
  return html`
    <ol part="stepper" class="stepper" aria-label=${text.heading}>
      ${progress.steps.map((step, i) => {
        const stateText = text.state(step.state);
        return html`
          <li
            part="step step-${step.state}"
            class="step"
            data-status=${step.status}
            data-state=${step.state}
            aria-current=${i === progress.current ? 'step' : nothing}
          >
            <span class="step-marker" aria-hidden="true">${icon[step.state]}</span>
            <span class="step-label">${text.label(step.status)}</span>
            ${stateText ? html`<span class="visually-hidden">(${stateText})</span>` : nothing}
          </li>
        `;
      })}
    </ol>
  `;
}
