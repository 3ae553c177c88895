import { copy } from '@genbot/core/copy';
import { createLogger } from '@genbot/core/log';
import type { RepliableInteraction } from 'discord.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INTERACTION_TOKEN_MS } from '../imagine-job.js';
import { TOKEN_END_LEAD_MS, tellBeforeTokenEnds } from './token-end.js';

const logger = createLogger({ level: 'silent' });

afterEach(() => {
  vi.useRealTimers();
});

/**
 * The slice of a discord.js interaction the warning reads: who authorised it,
 * when, and its answer (a stand-in: the 15 minutes are waited with fake timers).
 */
function interaction(options: { userInstallOnly: boolean; answer: string }) {
  const edits: string[] = [];
  const stub = {
    authorizingIntegrationOwners: { guildId: options.userInstallOnly ? null : 'guild-1', userId: 'ada' },
    createdTimestamp: Date.now(),
    fetchReply: async () => ({ content: options.answer, attachments: new Map() }),
    editReply: async (edit: { content: string }) => {
      edits.push(edit.content);
      return {};
    },
  };
  return { interaction: stub as unknown as RepliableInteraction, edits };
}

describe('tellBeforeTokenEnds', () => {
  it('takes a user install’s job out of the line and says so, shortly before the token ends', async () => {
    vi.useFakeTimers();
    const withdrawn: string[] = [];
    const intake = { withdraw: async (jobId: string) => void withdrawn.push(jobId) };
    const { interaction: waiting, edits } = interaction({ userInstallOnly: true, answer: '' });
    tellBeforeTokenEnds({ interaction: waiting, jobId: 'dc-int-1', intake, logger });
    await vi.advanceTimersByTimeAsync(INTERACTION_TOKEN_MS - TOKEN_END_LEAD_MS - 1_000);
    expect(edits).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(withdrawn).toEqual(['dc-int-1']);
    expect(edits).toEqual([copy.interactionTimeRunningOut]);
  });

  it('leaves an answer the job already filled, and a server install’s interaction, alone', async () => {
    vi.useFakeTimers();
    const intake = { withdraw: async () => undefined };
    const started = interaction({ userInstallOnly: true, answer: 'Drawing…' });
    const inServer = interaction({ userInstallOnly: false, answer: '' });
    tellBeforeTokenEnds({ interaction: started.interaction, jobId: 'dc-int-2', intake, logger });
    tellBeforeTokenEnds({ interaction: inServer.interaction, jobId: 'dc-int-3', intake, logger });
    await vi.advanceTimersByTimeAsync(INTERACTION_TOKEN_MS);
    expect([started.edits, inServer.edits]).toEqual([[], []]);
  });
});
