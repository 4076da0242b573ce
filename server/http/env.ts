// The Hono environment shared by every route: what middleware puts on the context.
import type { Logger } from '../logger';

export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    /** Set by Bearer auth on /v2. */
    partnerId: string;
  };
}
