// A Lit reactive controller for copy buttons: copies a text and, for a moment, says which button's text was copied.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { I18nController } from '../../i18n';
import { copyText } from './clipboard';

/** How long a copy button reads "Copied". */
const SHOWN_MS = 2_500;

export class CopyFeedback implements ReactiveController {
  /** The key of the button whose text was copied last, '' once the moment has passed. */
  #copied = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly i18n: I18nController,
    private readonly announce: (message: string) => void,
  ) {
    host.addController(this);
  }

  /** Whether `key`'s button should read "Copied" now. */
  is(key: string): boolean {
    return this.#copied === key;
  }

  /**
   * Copies `text` for the button `key` and announces `done`; when the browser refuses, `select` selects the text
   * instead and the user is told to copy it themselves.
   */
  async copy(key: string, text: string, done: string, select: () => void): Promise<void> {
    if (await copyText(text)) {
      this.#show(key);
      this.announce(done);
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => this.#show(''), SHOWN_MS);
    } else {
      select();
      this.announce(this.i18n.t('checkout.copy.manual'));
    }
  }

  /** Forgets the last copy (a new checkout). */
  clear(): void {
    this.#show('');
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
  }

  #show(key: string): void {
    this.#copied = key;
    this.host.requestUpdate();
  }
}
