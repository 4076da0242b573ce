// Types of ensure-chromium.mjs, for the TypeScript tests that import it.
export declare function findChromium(env?: Record<string, string | undefined>): string | undefined;
export declare function ensureChromium(): string;
