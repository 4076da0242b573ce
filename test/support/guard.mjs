// Loaded into every Node test file's process (`--import`): a file that leaves something open after its last test, or
// runs past its deadline, ends with a message naming what is open and where it was made, instead of hanging the run.
import { ChildProcess } from 'node:child_process';
import net from 'node:net';
import { relative } from 'node:path';
import { after } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const file = relative(root, process.argv[1] ?? 'unknown file');
const seconds = (name, fallback) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
};
/** How long a file may leave handles open after its last hook before it is ended: past a pg pool's 10 s idle timer. */
const leakGraceS = seconds('RAMP_TEST_LEAK_GRACE_S', 30);
/** A whole file's deadline; RAMP_TEST_TIMEOUT_SCALE stretches it on a slow machine, as it does every deadline of the run. */
const fileTimeoutS = seconds('RAMP_TEST_FILE_TIMEOUT_S', 600) * seconds('RAMP_TEST_TIMEOUT_SCALE', 1);

// Where each server, client socket and child process was made: the first frame of this repo's own code (not
// node_modules). The prototypes are wrapped, not async_hooks: an init hook would track every promise and slow the tests.
const made = new Set();
const ownFrame = (stack) =>
  (stack ?? '')
    .split('\n')
    .slice(1)
    .map((l) => l.trim())
    .find((l) => l.includes(root) && !l.includes('node_modules') && !l.includes('test/support/guard.mjs'))
    ?.replace('file://', '')
    .replace(root, '') ?? 'made outside this repo';
function track(proto, method, what, closeEvent, alive) {
  const original = proto[method];
  proto[method] = function (...args) {
    const entry = { what, stack: new Error().stack, alive: () => alive(this) };
    made.add(entry);
    this.once(closeEvent, () => made.delete(entry));
    return original.apply(this, args);
  };
}
track(net.Server.prototype, 'listen', 'a listening server', 'close', (s) => s.listening);
track(net.Socket.prototype, 'connect', 'a client socket', 'close', (s) => !s.destroyed);
track(ChildProcess.prototype, 'spawn', 'a child process', 'exit', (c) => c.exitCode === null && c.signalCode === null);

function report(why) {
  const open = process.getActiveResourcesInfo().filter((r) => r !== 'PipeWrap' && r !== 'TTYWrap');
  const counts = Object.entries(open.reduce((m, r) => ({ ...m, [r]: (m[r] ?? 0) + 1 }), {}))
    .map(([r, n]) => `${n} × ${r}`)
    .join(', ');
  const lines = [`${file}: ${why}. Open: ${counts || 'nothing the runtime names'}.`];
  for (const m of made) if (m.alive()) lines.push(`  ${m.what} made ${ownFrame(m.stack)}`);
  process.stderr.write(`${lines.join('\n')}\n`);
  process.exit(1);
}

setTimeout(() => report(`still running after ${fileTimeoutS} s (RAMP_TEST_FILE_TIMEOUT_S)`), fileTimeoutS * 1000).unref();
// Runs after the file's own `after` hooks. The timer does not keep the process alive: a clean file exits before it fires.
after(() => {
  setTimeout(() => report(`left open after its last test (ended ${leakGraceS} s later)`), leakGraceS * 1000).unref();
});
