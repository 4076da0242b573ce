// Types of node-flags.mjs, for the TypeScript benches and tests that import it.
export declare function tracesExporter(env?: Record<string, string | undefined>): boolean;
export declare function nodeFlags(env?: Record<string, string | undefined>, preload?: string): string[];
