import { describe, expect, it } from 'vitest';
import { healthPortFromEnv } from './health-port.js';

describe('healthPortFromEnv', () => {
  it('is undefined when HEALTH_PORT is unset or empty, and the number when it is a port', () => {
    expect(healthPortFromEnv({})).toBeUndefined();
    expect(healthPortFromEnv({ HEALTH_PORT: '' })).toBeUndefined();
    expect(healthPortFromEnv({ HEALTH_PORT: '9090' })).toBe(9090);
  });

  it('names the variable when it is not a port', () => {
    expect(() => healthPortFromEnv({ HEALTH_PORT: 'ninety' })).toThrow(/HEALTH_PORT/);
    expect(() => healthPortFromEnv({ HEALTH_PORT: '70000' })).toThrow(/HEALTH_PORT/);
  });
});
