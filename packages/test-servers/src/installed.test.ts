import { afterEach, describe, expect, it, vi } from 'vitest';
import { installedOrSkipped } from './installed.js';

const redis = { name: 'Redis', install: 'apt-get install redis-server' };

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('installedOrSkipped', () => {
  it('runs the tests of an installed server', () => {
    vi.stubEnv('CI', 'true');
    expect(installedOrSkipped({ ...redis, found: true })).toBe(true);
  });

  it('skips them outside CI with one line saying how to get the server', () => {
    vi.stubEnv('CI', '');
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(installedOrSkipped({ ...redis, found: false })).toBe(false);
    expect(write.mock.calls).toEqual([
      ['Redis is not installed: its tests are skipped (apt-get install redis-server)\n'],
    ]);
  });

  it('fails under CI, where they must run', () => {
    vi.stubEnv('CI', 'true');
    expect(() => installedOrSkipped({ ...redis, found: false })).toThrow(
      'Redis is not installed (apt-get install redis-server): under CI its tests must run',
    );
  });
});
