import { describe, expect, it } from 'vitest';
import { Opened } from './closing.js';

describe('Opened', () => {
  it('closes what was opened last first, and every part though one fails', async () => {
    const opened = new Opened();
    const closed: string[] = [];
    opened.add('database', async (name) => closed.push(name), 'database');
    opened.add('redis', async () => Promise.reject(new Error('already gone')), 'redis');
    opened.add('health', async (name) => closed.push(name), 'health');
    const warned: (string | undefined)[] = [];
    const clean = await opened.closeAll(0, { warn: (fields) => warned.push(fields.part) });
    expect(closed).toEqual(['health', 'database']);
    expect(clean).toBe(false);
    expect(warned).toEqual(['redis']);
  });

  it('hands each part out once, so nothing is closed twice', async () => {
    const opened = new Opened();
    let closes = 0;
    opened.add('service', async () => (closes += 1), 'service');
    expect(opened.stages().map((stage) => stage.map((part) => part.name))).toEqual([['service']]);
    expect(opened.stages()).toEqual([]);
    await opened.closeAll();
    expect(closes).toBe(0);
  });

  it('rolls back what a start-up opened before it failed, then rethrows', async () => {
    const opened = new Opened();
    const closed: string[] = [];
    const failing = opened.rollbackOnError(async (it) => {
      it.add('service', async (name) => closed.push(name), 'service');
      it.add('health', async (name) => closed.push(name), 'health');
      throw new Error('port taken');
    });
    await expect(failing).rejects.toThrow('port taken');
    expect(closed).toEqual(['health', 'service']);
  });

  it('keeps what a start-up opened when it succeeds', async () => {
    const opened = new Opened();
    const value = await opened.rollbackOnError(async (it) => it.add(42, async () => undefined, 'answer'));
    expect(value).toBe(42);
    expect(opened.stages()).toHaveLength(1);
  });
});
