import { accessSync, constants } from 'node:fs';
import { inCi } from '@genbot/test-servers';

/** Where a Chromium usually is, in the order looked at: Debian's package first, then Chrome's places. */
export const CHROMIUM_PLACES: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export const INSTALL_HINT = 'install one with `apt-get install chromium`, or set CHROMIUM_PATH';

export interface ChromiumLookup {
  /** Read: CHROMIUM_PATH (a browser chosen on purpose) and CI. */
  env: Readonly<Record<string, string | undefined>>;
  isExecutable(path: string): boolean;
}

export type Chromium = { found: true; path: string } | { found: false; why: string };

const SYSTEM: ChromiumLookup = {
  env: process.env,
  isExecutable(path) {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  },
};

/**
 * CHROMIUM_PATH when set (and then only it: a browser chosen on purpose is not swapped for another),
 * otherwise the first of the usual places that holds one.
 */
export function findChromium(lookup: ChromiumLookup = SYSTEM): Chromium {
  const chosen = lookup.env.CHROMIUM_PATH;
  if (chosen !== undefined && chosen !== '') {
    return lookup.isExecutable(chosen)
      ? { found: true, path: chosen }
      : { found: false, why: `CHROMIUM_PATH=${chosen} is not an executable file` };
  }
  const path = CHROMIUM_PLACES.find((place) => lookup.isExecutable(place));
  return path === undefined
    ? { found: false, why: `no Chromium at ${CHROMIUM_PLACES[0]} or Chrome's usual places` }
    : { found: true, path };
}

/**
 * The browser for the browser test, or undefined after one line saying it is skipped and how to get
 * a browser. In CI a missing browser is an error: the browser test must run there.
 */
export function chromiumForTests(
  lookup: ChromiumLookup = SYSTEM,
  say: (line: string) => void = (line) => console.warn(line),
): string | undefined {
  const chromium = findChromium(lookup);
  if (chromium.found) return chromium.path;
  if (inCi(lookup.env)) throw new Error(`The browser test must run in CI, but ${chromium.why}: ${INSTALL_HINT}.`);
  say(`Browser test skipped: ${chromium.why}; ${INSTALL_HINT}.`);
  return undefined;
}
