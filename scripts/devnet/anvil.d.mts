// Types of anvil.mjs (start and stop a local EVM node), for the TypeScript tests that import it.
import type { ChildProcess } from 'node:child_process';

type Hex = `0x${string}`;

export interface AnvilNode {
  rpcUrl: string;
  chainId: number;
  child: ChildProcess;
  /** Resolves once the node has exited; safe to call twice. */
  stop(): Promise<void>;
}

interface DevAccount {
  address: Hex;
  privateKey: Hex;
}
/** Anvil's first four dev accounts, each funded with 10 000 ETH on a fresh node. */
export declare const DEV_ACCOUNTS: readonly [DevAccount, DevAccount, DevAccount, DevAccount];
export declare function anvilBinary(): string;
export declare function startAnvil(opts: { chainId: number; blockTime?: number; noMining?: boolean; port?: number; args?: string[] }): Promise<AnvilNode>;
