// The orphan sweep: removes files of the store that no document names (a crash between publishing a file and its row's commit)
// and temporary files left behind (a crash mid-upload), once they are older than RAMP_ORPHAN_FILE_GRACE_MS. Safe with several
// processes on one store and database: a published file is removed only under its hash's lock with no document row in sight,
// and an upload holds that lock from publishing its file until its row commits. Ages are by the file's own modification time.
import { removeIfUnreferenced } from '../flows/documents';
import type { Logger } from '../logger';
import type { Db } from '../store/db';
import type { FileStore } from '../store/file-store';
import { PollLoop } from './poll-loop';

export interface SweepDeps {
  db: Db;
  files: FileStore;
  logger: Logger;
}

export interface SweepResult {
  files: number;
  temps: number;
}

/** One pass over the store; answers how many published and temporary files it removed. */
export async function sweepOrphanFiles(deps: SweepDeps, opts: { graceMs: number; now?: number }): Promise<SweepResult> {
  const now = opts.now ?? Date.now();
  const removed: SweepResult = { files: 0, temps: 0 };
  for await (const entry of deps.files.list()) {
    if (now - entry.modifiedAt.getTime() < opts.graceMs) continue;
    try {
      if (entry.kind === 'temp') {
        await deps.files.remove(entry);
        removed.temps++;
      } else if (await removeIfUnreferenced(deps.db, deps.files, entry.key)) {
        removed.files++;
      }
    } catch (err) {
      deps.logger.warn({ err, kind: entry.kind }, 'orphan sweep could not remove a file; the next pass retries');
    }
  }
  if (removed.files || removed.temps) deps.logger.info({ removed }, 'orphan sweep removed files');
  return removed;
}

/** Runs the sweep now and then every `intervalMs` until stopped. */
export class OrphanSweeper {
  private readonly loop: PollLoop;

  constructor(deps: SweepDeps, opts: { graceMs: number; intervalMs: number }) {
    this.loop = new PollLoop(() => sweepOrphanFiles(deps, { graceMs: opts.graceMs }), opts.intervalMs, (err) => deps.logger.error({ err }, 'orphan sweep failed'), { unref: true });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}

/** The sweeper of a process: every quarter of the grace period, between one minute and fifteen. */
export function orphanSweeper(deps: SweepDeps & { config: { RAMP_ORPHAN_FILE_GRACE_MS: number } }): OrphanSweeper {
  const graceMs = deps.config.RAMP_ORPHAN_FILE_GRACE_MS;
  return new OrphanSweeper(deps, { graceMs, intervalMs: Math.min(15 * 60_000, Math.max(60_000, graceMs / 4)) });
}
