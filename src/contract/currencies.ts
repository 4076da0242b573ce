// The currencies the service quotes and their decimals: the one list the server (server/domain/money.ts) and the components use. No zod here.
export const FIAT = ['BRL', 'USD', 'EUR'] as const;
export const STABLECOINS = ['USDC', 'USDT'] as const;
export const CURRENCIES = [...FIAT, ...STABLECOINS] as const;
export type Fiat = (typeof FIAT)[number];
export type Stablecoin = (typeof STABLECOINS)[number];
export type Currency = Fiat | Stablecoin;

export const isFiat = (c: unknown): c is Fiat => (FIAT as readonly unknown[]).includes(c);
export const isStablecoin = (c: unknown): c is Stablecoin => (STABLECOINS as readonly unknown[]).includes(c);
export const isCurrency = (c: unknown): c is Currency => isFiat(c) || isStablecoin(c);

/** Decimal places an amount of the currency carries: the fiat's cents, the token contracts' 6 decimals. */
export const decimalsOf = (currency: Currency): number => (isStablecoin(currency) ? 6 : 2);
