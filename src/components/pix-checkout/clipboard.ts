// Copying the PIX code: the async Clipboard API where the page may use it, else the user copies a selection we make for them.

/**
 * Writes `text` to the clipboard; `false` when the browser refuses (an insecure http page, an iframe without
 * `clipboard-write`, a denied permission), so the caller can fall back to selecting the text for a manual copy.
 */
export async function copyText(text: string, clipboard: Pick<Clipboard, 'writeText'> | undefined = globalThis.navigator?.clipboard): Promise<boolean> {
  if (!clipboard?.writeText) return false;
  try {
    await clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Selects all of a field's text and focuses it, so Ctrl/⌘+C or the phone's own "Copy" menu is one step away. */
export function selectAll(field: HTMLInputElement | HTMLTextAreaElement): void {
  field.focus();
  field.select();
  field.setSelectionRange(0, field.value.length);
}
