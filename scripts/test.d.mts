// Types for scripts/test.mjs (the `npm test` stage runner), for the tests that drive it.
export interface Stage {
  name: string;
  needs?: string[];
  commands: string[][];
  timeoutS: number;
  /** Extra environment for the stage's commands. */
  env?: Record<string, string>;
  prepare?: () => Promise<{ env?: Record<string, string>; skip?: string; failed?: boolean; loud?: boolean }>;
}
export const timeoutScale: number;
export const RACE_FILES: string[];
export function nodeTest(files: string[], concurrency: number): string[];
export function stages(): Stage[];
export function runStages(list: Stage[], opts?: { log?: (line: string) => void; env?: Record<string, string>; quiet?: boolean }): Promise<number>;
