// The chains the service settles stablecoins on: the one list the server (schemas, config, wallets) and the components use. No zod here.
export const BLOCKCHAINS = ['ETHEREUM', 'BASE', 'TRON', 'POLYGON'] as const;
export type Blockchain = (typeof BLOCKCHAINS)[number];

export const isBlockchain = (value: unknown): value is Blockchain => (BLOCKCHAINS as readonly unknown[]).includes(value);

/** How a chain is written for people (product names, not translated). */
export const BLOCKCHAIN_NAMES: Readonly<Record<Blockchain, string>> = { ETHEREUM: 'Ethereum', BASE: 'Base', TRON: 'Tron', POLYGON: 'Polygon' };

/** The name to show for a chain the server named: `POLYGON` → "Polygon"; a chain this build does not know keeps its code. */
export const blockchainName = (value: string): string => (isBlockchain(value) ? BLOCKCHAIN_NAMES[value] : value);
