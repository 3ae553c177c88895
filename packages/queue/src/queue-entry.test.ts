import { describe, expect, it } from 'vitest';
import { bullJobId, ENTRY_SCHEMA, readEntry, writeEntry } from './queue-entry.js';

describe('queue entries', () => {
  const job = { id: 'slack-ev-Ev1', lane: 'image', platform: 'slack', userId: 'U1' } as const;

  it('carries the schema version and the routing only, and reads back what it wrote', () => {
    expect(writeEntry(job)).toEqual({ schema: ENTRY_SCHEMA, ...job });
    expect(readEntry(JSON.parse(JSON.stringify(writeEntry(job))))).toEqual({ kind: 'job', job });
  });

  it('leaves a newer schema alone and says what is wrong with an unreadable entry', () => {
    expect(readEntry({ schema: ENTRY_SCHEMA + 1, anything: true })).toEqual({
      kind: 'newer',
      schema: ENTRY_SCHEMA + 1,
    });
    expect(readEntry('slack-ev-Ev1')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/^no schema version/),
    });
    expect(readEntry({ ...writeEntry(job), userId: '' })).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('userId'),
    });
  });

  it('makes BullMQ ids that are never digits only and hold no colon', () => {
    expect(bullJobId('12345')).toBe('job-12345');
    expect(bullJobId('dc-int:1:2')).toBe('job-dc-int%3A1%3A2');
    expect(bullJobId('a%3Ab')).not.toBe(bullJobId('a:b'));
  });
});
