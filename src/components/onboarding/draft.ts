// An unfinished first step kept in localStorage (opt-in, `keep-draft`), so a reload or a renewed session does not lose
// it: never the tax id (and documents never pass through this form); removed once the customer exists.
import { customerTypes, emptyForm, type FormValues } from './model';

const KEY = 'ramp-onboarding-draft';

type Draft = Omit<FormValues, 'taxId'>;

export function saveDraft(values: FormValues): void {
  const { taxId: _taxId, ...draft } = values;
  try {
    const untouched = emptyForm(values.type);
    if (Object.entries(draft).every(([field, value]) => field === 'type' || value === untouched[field as keyof FormValues])) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, JSON.stringify(draft));
  } catch {
    // Storage full, disabled or denied (a sandboxed iframe): the draft is a convenience, not a requirement.
  }
}

/** The saved draft as form values (tax id empty), or undefined when there is none or it is not ours. */
export function loadDraft(): FormValues | undefined {
  try {
    const raw = localStorage.getItem(KEY);
    if (!raw) return undefined;
    const saved = JSON.parse(raw) as Partial<Record<keyof Draft, unknown>>;
    const type = customerTypes.find((t) => t === saved.type);
    if (!type) return undefined;
    const values = emptyForm(type);
    for (const field of Object.keys(values) as (keyof FormValues)[]) {
      const value = saved[field as keyof Draft];
      if (field !== 'type' && field !== 'taxId' && typeof value === 'string') values[field] = value;
    }
    return values;
  } catch {
    return undefined;
  }
}

export function clearDraft(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing kept, nothing to clear
  }
}
