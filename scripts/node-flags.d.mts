// Types of node-flags.mjs, for the TypeScript benches and tests that import it.
export declare function nodeFlags(env?: Record<string, string | undefined>): string[];
