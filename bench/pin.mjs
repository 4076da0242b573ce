// CPU pinning for the HTTP benches: BENCH_SERVER_CPUS pins the servers (the app under test and the bare floor) and
// BENCH_LOAD_CPUS the load generator (the bench's own process), each a `taskset -c` list such as `0` or `1`. On a
// 2-core host unpinned processes share both cores, so a server's cost and the load generator's mix; pinned apart, a
// change that only moves work between them (when an answer is written, say) shows as what it is.
import { execFileSync } from 'node:child_process';

export const serverCpus = process.env.BENCH_SERVER_CPUS || undefined;
export const loadCpus = process.env.BENCH_LOAD_CPUS || undefined;

/** Pins every thread of process `pid` (and so whatever it starts later) to `cpus`; nothing when `cpus` is unset. */
export function pin(pid, cpus) {
  if (cpus === undefined || pid === undefined) return;
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
}

/** The pinning in force, for the bench's output. */
export const pinning = () => (serverCpus || loadCpus ? `servers on CPU ${serverCpus ?? 'any'}, load generator on CPU ${loadCpus ?? 'any'}` : 'unpinned');
