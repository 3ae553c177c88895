import { describe, expect, it } from 'vitest';
import { InFlightWork } from './in-flight.js';

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('InFlightWork', () => {
  it('waits for running work before drain resolves', async () => {
    const work = new InFlightWork();
    const done: string[] = [];
    work.run(async () => {
      await wait(30);
      done.push('reply');
    });
    expect(work.size).toBe(1);
    expect(await work.drain(5_000)).toBe(true);
    expect(done).toEqual(['reply']);
    expect(work.size).toBe(0);
  });

  it('refuses new work once draining has begun', async () => {
    const work = new InFlightWork();
    const draining = work.drain(1_000);
    expect(work.accepting).toBe(false);
    expect(work.run(async () => undefined)).toBe(false);
    expect(await draining).toBe(true);
  });

  it('aborts work that outlives the bound', async () => {
    const work = new InFlightWork();
    let aborted = false;
    work.run(
      (signal) =>
        new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            resolve();
          });
        }),
    );
    expect(await work.drain(20)).toBe(false);
    expect(aborted).toBe(true);
  });

  it('hands task errors to the error callback and keeps going', async () => {
    const work = new InFlightWork();
    const errors: unknown[] = [];
    work.run(async () => {
      throw new Error('boom');
    }, (error) => errors.push(error));
    expect(await work.drain(1_000)).toBe(true);
    expect(errors).toHaveLength(1);
  });
});
