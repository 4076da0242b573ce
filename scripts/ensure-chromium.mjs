// Finds a Chromium for the browser tests (CHROME_PATH, then the usual install paths); on Debian as root with none, installs the `chromium` package.
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const candidates = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium to launch, or undefined. A set but wrong CHROME_PATH is not silently replaced by another browser. */
export function findChromium(env = process.env) {
  if (env.CHROME_PATH) return isExecutable(env.CHROME_PATH) ? env.CHROME_PATH : undefined;
  return candidates.find(isExecutable);
}

function installOnDebian() {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // No stdin in CI: everything non-interactive, output to our stderr so the test log shows progress.
  const stdio = ['ignore', process.stderr, process.stderr];
  execFileSync('apt-get', ['update'], { env, stdio });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env, stdio });
}

/** Finds one, installing it first when that is safe (Debian, root, no CHROME_PATH pointing elsewhere); exits 1 with one line otherwise. */
export function ensureChromium() {
  const found = findChromium();
  if (found) return found;
  const canInstall = !process.env.CHROME_PATH && existsSync('/etc/debian_version') && process.getuid?.() === 0;
  if (canInstall) {
    console.error('No Chromium found: installing the Debian `chromium` package (apt-get, about 35 s)…');
    try {
      installOnDebian();
    } catch (error) {
      console.error(`apt-get failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const installed = findChromium();
    if (installed) return installed;
  }
  const why = process.env.CHROME_PATH ? `CHROME_PATH=${process.env.CHROME_PATH} is not an executable file` : 'no Chromium found';
  console.error(
    `${why}: install one (Debian/Ubuntu: sudo apt-get install chromium; macOS: brew install --cask chromium) or set CHROME_PATH to a Chrome/Chromium binary.`,
  );
  process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(ensureChromium());
}
