import { createLogger } from '@genbot/core/log';
import { CancelledError } from '@genbot/core/errors';
import { BotRuntime } from '@genbot/core/runtime';
import type { JobIntake } from '@genbot/core/jobs';
import { Client, Collection, Events, type ClientEvents } from 'discord.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { messageJobId } from '../job-ids.js';
import { cancelOnDelete } from './deletions.js';

const logger = createLogger({ level: 'silent' });

/** discord.js builds these arguments from gateway data; the handler reads only message IDs, so stand-ins do. */
function emit<E extends Events.MessageDelete | Events.MessageBulkDelete>(
  client: Client,
  event: E,
  ...args: unknown[]
): void {
  client.emit(event, ...(args as ClientEvents[E]));
}

function setUp() {
  // Never logged in: only its events are used.
  const client = new Client({ intents: [] });
  onTestFinished(() => client.destroy());
  const runtime = new BotRuntime();
  // An intake whose jobs never wait in line: nothing to withdraw.
  const intake: JobIntake = { submit: async () => ({ accepted: true, duplicate: false }) };
  cancelOnDelete(client, runtime, intake, logger);
  /** A job of the runtime started by `trigger` that runs until cancelled; its signal. */
  const begin = (trigger: string): AbortSignal => {
    let seen: AbortSignal | undefined;
    runtime.start({
      trigger,
      run: (signal) => {
        seen = signal;
        return new Promise((resolve) => signal.addEventListener('abort', resolve));
      },
      onError: () => undefined,
    });
    if (seen === undefined) throw new Error('the job did not start');
    return seen;
  };
  return { client, begin };
}

describe('cancelOnDelete', () => {
  it('cancels the work a deleted message started, and only that', () => {
    const { client, begin } = setUp();
    const mention = begin(messageJobId('111'));
    const other = begin(messageJobId('222'));
    emit(client, Events.MessageDelete, { id: '111' });
    expect(mention.aborted).toBe(true);
    expect(mention.reason).toBeInstanceOf(CancelledError);
    expect(other.aborted).toBe(false);
  });

  it('cancels every trigger among bulk-deleted messages', () => {
    const { client, begin } = setUp();
    const first = begin(messageJobId('111'));
    const second = begin(messageJobId('333'));
    const messages = new Collection([
      ['111', { id: '111' }],
      ['222', { id: '222' }],
      ['333', { id: '333' }],
    ]);
    emit(client, Events.MessageBulkDelete, messages, { id: 'channel' });
    expect([first.aborted, second.aborted]).toEqual([true, true]);
  });
});
