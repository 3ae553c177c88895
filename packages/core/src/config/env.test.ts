import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { envChoice, envPort, envString, envUrl, requiredEnvString } from './env.js';

function variableAtFault(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).variable;
  }
  return undefined;
}

describe('reading a variable', () => {
  it('takes an empty or blank value for unset, and trims', () => {
    expect(envString({ A: '' }, 'A')).toBeUndefined();
    expect(envString({ A: '  ' }, 'A')).toBeUndefined();
    expect(envString({ A: ' v ' }, 'A')).toBe('v');
  });

  it('names a required variable that is unset, and says what needs it', () => {
    expect(requiredEnvString({ A: 'v' }, 'A', 'to run')).toBe('v');
    expect(() => requiredEnvString({ A: ' ' }, 'A', 'to run the thing.')).toThrow('A is required to run the thing.');
  });

  it('reads http and https addresses only', () => {
    expect(envUrl({}, 'U', 'https://fallback/')).toBe('https://fallback/');
    expect(envUrl({ U: 'http://127.0.0.1:9/api/' }, 'U', 'https://fallback/')).toBe('http://127.0.0.1:9/api/');
    expect(variableAtFault(() => envUrl({ U: 'ftp://x' }, 'U'))).toBe('U');
    expect(variableAtFault(() => envUrl({ U: 'not a url' }, 'U'))).toBe('U');
  });

  it('reads ports from 0 to 65535', () => {
    expect(envPort({}, 'P', 3000)).toBe(3000);
    expect(envPort({ P: '0' }, 'P', 3000)).toBe(0);
    for (const bad of ['70000', '-1', 'eighty', '80.5'])
      expect(variableAtFault(() => envPort({ P: bad }, 'P', 1))).toBe('P');
  });

  it('reads one of a set of words, ignoring case only when asked', () => {
    const modes = ['edit', 'native'] as const;
    expect(envChoice({}, 'M', modes, { fallback: 'edit' })).toBe('edit');
    expect(envChoice({ M: 'native' }, 'M', modes, { fallback: 'edit' })).toBe('native');
    expect(envChoice({ M: 'NATIVE' }, 'M', modes, { fallback: 'edit', ignoreCase: true })).toBe('native');
    expect(() => envChoice({ M: 'NATIVE' }, 'M', modes, { fallback: 'edit' })).toThrow(
      'M must be one of: edit, native.',
    );
  });
});
