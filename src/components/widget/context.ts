// What <ramp-widget> hands to the components inside it (Lit context protocol): the session, the BFF and the language.
import type { Context } from '@lit/context';

export interface RampContext {
  session: string;
  apiBase: string;
  lang: string;
  /** Gets the widget a new session (session-url, or the page through its events); true once every component has it. */
  renew?: (refused?: string) => Promise<boolean>;
}

/** What `createContext` would return (it returns its key), without importing it into every component's first chunk. */
export const rampContext = Symbol.for('ramp-context') as Context<symbol, RampContext>;
