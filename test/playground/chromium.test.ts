import { describe, expect, it } from 'vitest';
import { CHROMIUM_PLACES, chromiumForTests, findChromium, type ChromiumLookup } from './chromium.js';

function lookup(env: Record<string, string>, executables: readonly string[]): ChromiumLookup {
  return { env, isExecutable: (path) => executables.includes(path) };
}

describe('findChromium', () => {
  it('looks at Debian’s Chromium first, then Chrome’s usual places, in order', () => {
    expect(CHROMIUM_PLACES.slice(0, 5)).toEqual([
      '/usr/bin/chromium',
      '/usr/bin/chromium-browser',
      '/usr/bin/google-chrome',
      '/usr/bin/google-chrome-stable',
      '/snap/bin/chromium',
    ]);
    expect(CHROMIUM_PLACES.filter((place) => place.startsWith('/Applications/'))).toHaveLength(2);
    // With the places from i on installed, the i-th is taken.
    for (const [i, place] of CHROMIUM_PLACES.entries()) {
      expect(findChromium(lookup({}, CHROMIUM_PLACES.slice(i)))).toEqual({ found: true, path: place });
    }
  });

  it('takes CHROMIUM_PATH over every usual place, and only it when set', () => {
    expect(
      findChromium(lookup({ CHROMIUM_PATH: '/opt/chrome/chrome' }, ['/opt/chrome/chrome', ...CHROMIUM_PLACES])),
    ).toEqual({ found: true, path: '/opt/chrome/chrome' });
    expect(findChromium(lookup({ CHROMIUM_PATH: '/nowhere/chrome' }, CHROMIUM_PLACES))).toEqual({
      found: false,
      why: 'CHROMIUM_PATH=/nowhere/chrome is not an executable file',
    });
    expect(findChromium(lookup({ CHROMIUM_PATH: '' }, ['/usr/bin/chromium']))).toEqual({
      found: true,
      path: '/usr/bin/chromium',
    });
  });
});

describe('chromiumForTests', () => {
  it('without a browser, says in one line how to install one and skips', () => {
    const lines: string[] = [];
    expect(chromiumForTests(lookup({}, []), (line) => lines.push(line))).toBeUndefined();
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    expect(lines[0]).toContain('`apt-get install chromium`');
  });

  it.each(['true', '1', 'github'])('fails the run when CI=%s and there is no browser', (ci) => {
    const lines: string[] = [];
    expect(() => chromiumForTests(lookup({ CI: ci }, []), (line) => lines.push(line))).toThrow(
      /^The browser test must run in CI, but no Chromium at \/usr\/bin\/chromium .*`apt-get install chromium`/,
    );
    expect(lines).toEqual([]);
  });

  it.each(['', 'false', '0'])('skips when CI=%j, which says it is not CI', (ci) => {
    expect(chromiumForTests(lookup({ CI: ci }, []), () => undefined)).toBeUndefined();
  });

  it('answers the browser it found, in CI or not, saying nothing', () => {
    const lines: string[] = [];
    const say = (line: string) => lines.push(line);
    expect(chromiumForTests(lookup({ CI: 'true' }, ['/snap/bin/chromium']), say)).toBe('/snap/bin/chromium');
    expect(chromiumForTests(lookup({}, ['/usr/bin/chromium']), say)).toBe('/usr/bin/chromium');
    expect(lines).toEqual([]);
  });
});
