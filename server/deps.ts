// What the routes, flows and workers need from the process: configuration, the store, the clock, signing, logs.
import type { Clock } from './clock';
import type { Chains } from './flows/chain/chains';
import type { Config } from './config';
import type { RateSource } from './domain/rates/rate-source';
import type { SettlementProvider } from './domain/settlement/settlement-provider';
import type { PixPsp } from './domain/pix/pix-psp';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { ReviewProvider } from './sandbox/review-provider';
import type { Store } from './store/db';
import type { FileStore } from './store/file-store';
import type { Tokens } from './tokens';

/** The database a request or a job is given (a store's, or a transaction of it): what routes hand to the flows. */
export type Db = Store['db'];

export interface Deps {
  config: Config;
  store: Store;
  clock: Clock;
  logger: Logger;
  tokens: Tokens;
  files: FileStore;
  reviews: ReviewProvider;
  rates: RateSource;
  /** The rails money moves on: simulated in sandbox, a real provider in production. */
  settlement: SettlementProvider;
  /** The PSP PIX goes through (RAMP_PIX_PSP_URL set); absent, PIX is simulated (sandbox only). */
  pix?: PixPsp;
  /** The chains that settle on a node (RAMP_CHAIN_RPC_<CHAIN>): their clients, treasuries and tokens. */
  chains: Chains;
  /** Hex BIP-32 seed the customer wallets derive from. */
  walletSeed: string;
  /** The API key of the partner this instance serves; the BFF calls /v2 with it. Never sent to a browser. */
  apiKey: string;
  /** Prometheus series (RAMP_METRICS_PORT set); absent, nothing is measured. */
  metrics?: Metrics;
}
