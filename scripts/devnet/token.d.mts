// Types of token.mjs (the devnet's test token), for the TypeScript tests that import it.
import type { Abi } from 'viem';

type Hex = `0x${string}`;

export declare function compileTestToken(): { abi: Abi; bytecode: Hex };
export declare function deployToken(rpcUrl: string, opts: { name: string; symbol: string; decimals: number; deployerKey: Hex }): Promise<Hex>;
export declare function mint(rpcUrl: string, opts: { token: Hex; to: Hex; amount: bigint; ownerKey: Hex }): Promise<Hex>;
export declare function sendNative(rpcUrl: string, opts: { to: Hex; value: bigint; fromKey: Hex }): Promise<Hex>;
