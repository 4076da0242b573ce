// The configured chains of this process: each one's node (ChainClient), treasury and token decimals, and which chains a request may name.
import type { Config } from '../../config';
import { ConfigError } from '../../config';
import { type ChainClient, ContractCallError } from '../../domain/chain/chain-client';
import type { ChainSettings, EvmChain } from '../../domain/chain/settings';
import { isEvmChain } from '../../domain/chain/settings';
import { type TreasuryAccount, treasuryAccount } from '../../domain/chain/treasury';
import { AppError } from '../../domain/errors';
import { isStablecoin, type Stablecoin } from '../../domain/money';
import type { SettlementProvider } from '../../domain/settlement/settlement-provider';
import type { Blockchain } from '../../domain/wallets';
import type { Logger } from '../../logger';

/** The service needs its amounts (6 decimals) to convert exactly into a token's base units. */
export const MIN_TOKEN_DECIMALS = 6;

export interface ChainRuntime {
  settings: ChainSettings;
  client: ChainClient;
  treasury: TreasuryAccount;
  /** The token's decimals, read from the contract once (a failed read is asked again next time). */
  decimals(coin: Stablecoin): Promise<number>;
}

export class Chains {
  private readonly byName: Map<EvmChain, ChainRuntime>;
  constructor(list: ChainRuntime[]) {
    this.byName = new Map(list.map((c) => [c.settings.blockchain, c]));
  }
  get(blockchain: Blockchain | string): ChainRuntime | undefined {
    return isEvmChain(blockchain) ? this.byName.get(blockchain) : undefined;
  }
  list(): ChainRuntime[] {
    return [...this.byName.values()];
  }
  names(): EvmChain[] {
    return [...this.byName.keys()];
  }
}

/** One runtime per configured chain; `clientFor` makes the node's client (viem in the service, the same in the ops CLI). */
export function openChains(config: Pick<Config, 'chains'>, walletSeed: string, clientFor: (s: ChainSettings) => ChainClient): Chains {
  return new Chains(
    config.chains.map((settings) => {
      const client = clientFor(settings);
      const known = new Map<Stablecoin, Promise<number>>();
      const decimals = (coin: Stablecoin): Promise<number> => {
        const token = settings.tokens[coin];
        if (!token) return Promise.reject(new Error(`${coin} is not configured on ${settings.blockchain}`));
        let p = known.get(coin);
        if (!p) {
          p = client.decimals(token).then((d) => {
            if (d < MIN_TOKEN_DECIMALS) throw new ContractCallError(`the ${coin} token ${token} has ${d} decimals; the service needs at least ${MIN_TOKEN_DECIMALS}`);
            return d;
          });
          p.catch(() => known.delete(coin));
          known.set(coin, p);
        }
        return p;
      };
      return { settings, client, treasury: treasuryAccount(walletSeed, settings.blockchain), decimals };
    }),
  );
}

/**
 * At start, every configured token's decimals from its contract: an address that is no token (or one with too few
 * decimals) stops the start naming the variable; a node that does not answer is logged, and the read is retried when a
 * payout needs it (a node down must not keep the service from starting).
 */
export async function checkTokens(chains: Chains, logger: Logger): Promise<void> {
  const problems: string[] = [];
  await Promise.all(
    chains.list().flatMap((c) =>
      (Object.keys(c.settings.tokens) as Stablecoin[]).map((coin) =>
        c.decimals(coin).then(
          (decimals) => logger.info({ blockchain: c.settings.blockchain, coin, decimals, treasury: c.treasury.address }, 'chain token ready'),
          (err) => {
            const name = `RAMP_CHAIN_TOKEN_${c.settings.blockchain}_${coin}`;
            if (err instanceof ContractCallError) problems.push(`${name}: ${err.message.split('\n')[0]}`);
            else logger.warn({ blockchain: c.settings.blockchain, coin, reason: (err as Error).message.split('\n')[0] }, 'chain node unavailable at start; token decimals are read when a payout needs them');
          },
        ),
      ),
    ),
  );
  if (problems.length) throw new ConfigError(problems.join('\n'));
}

/**
 * In production: at least one chain settles for real, on a configured node or by a provider that says it moves
 * stablecoin itself (`settlement.chains`: omitted means every chain, as an embedding host's provider always did).
 */
export function checkProductionChains(config: Pick<Config, 'sandbox' | 'chains'>, settlement: SettlementProvider): void {
  if (config.sandbox || config.chains.length > 0) return;
  if (settlement.chains === undefined || settlement.chains.length > 0) return;
  throw new ConfigError('RAMP_CHAIN_RPC_<CHAIN>: production needs at least one chain to settle on: set RAMP_CHAIN_RPC_ETHEREUM, _BASE or _POLYGON with its tokens');
}

/**
 * 422 BLOCKCHAIN_UNAVAILABLE, naming `path`, unless `blockchain` can carry `coin` here: a configured chain with that coin's
 * token; an unconfigured one only on the simulated rails (sandbox) or a provider that settles it.
 */
export function requireChain(
  deps: { config: Pick<Config, 'sandbox'>; chains: Chains; settlement: SettlementProvider },
  blockchain: Blockchain,
  coin: string | undefined,
  opts: { path?: string } = {},
): void {
  const runtime = deps.chains.get(blockchain);
  let problem: string | undefined;
  if (runtime) {
    if (isStablecoin(coin) && !runtime.settings.tokens[coin]) problem = `${coin} is not available on ${blockchain} on this service`;
  } else if (!deps.config.sandbox && deps.settlement.chains !== undefined && !deps.settlement.chains.includes(blockchain)) {
    problem = `${blockchain} is not available on this service`;
  }
  const path = opts.path ?? 'blockchain';
  if (problem) throw new AppError('BLOCKCHAIN_UNAVAILABLE', `${problem}.`, { errors: [{ path, message: problem, code: 'NOT_ALLOWED' }] });
}
