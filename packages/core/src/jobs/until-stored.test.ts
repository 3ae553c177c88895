import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../store/index.js';
import { untilStored } from './until-stored.js';

const down = () => new StoreUnavailableError('DATABASE_URL: PostgreSQL cannot be reached', { retryable: true });

function quietLogger(lines: string[]) {
  const log = (_fields: object, message: string) => {
    lines.push(message);
  };
  return { debug: log, info: log, warn: log, error: log };
}

describe('untilStored', () => {
  it('tries again with a growing pause until the database answers, saying so once each way', async () => {
    const lines: string[] = [];
    const pauses: number[] = [];
    let calls = 0;
    const result = await untilStored(
      'record a step',
      async () => {
        calls += 1;
        if (calls < 5) throw down();
        return 'recorded';
      },
      {
        logger: quietLogger(lines),
        stopped: () => false,
        firstDelayMs: 100,
        maxDelayMs: 300,
        sleep: async (ms) => {
          pauses.push(ms);
        },
      },
    );
    expect(result).toBe('recorded');
    expect(calls).toBe(5);
    expect(pauses).toHaveLength(4);
    const bounds = [100, 200, 300, 300];
    pauses.forEach((ms, index) => {
      expect(ms).toBeGreaterThanOrEqual(bounds[index]! * 0.75);
      expect(ms).toBeLessThanOrEqual(bounds[index]! * 1.25);
    });
    expect(lines).toEqual([
      'the database cannot be used: the job waits for it',
      'the database answers again: the job goes on',
    ]);
  });

  it('gives up with the store’s refusal once stopping began', async () => {
    let stopping = false;
    const refusal = down();
    const attempt = untilStored(
      'finish the job',
      async () => {
        throw refusal;
      },
      {
        logger: quietLogger([]),
        stopped: () => stopping,
        sleep: async () => {
          stopping = true;
        },
      },
    );
    await expect(attempt).rejects.toBe(refusal);
  });

  it('throws any other error at once', async () => {
    let calls = 0;
    const bug = new Error('a constraint failed');
    const attempt = untilStored(
      'record a step',
      async () => {
        calls += 1;
        throw bug;
      },
      { logger: quietLogger([]), stopped: () => false, sleep: async () => undefined },
    );
    await expect(attempt).rejects.toBe(bug);
    expect(calls).toBe(1);
  });
});
