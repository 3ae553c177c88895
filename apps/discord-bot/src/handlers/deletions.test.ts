import { CancellationRegistry, CancelledError, createLogger } from '@genbot/core';
import { Client, Collection, Events, type ClientEvents } from 'discord.js';
import { describe, expect, it, onTestFinished } from 'vitest';
import { triggerKey } from '../trigger-key.js';
import { cancelOnDelete } from './deletions.js';

const logger = createLogger({ level: 'silent' });

/** discord.js builds these arguments from gateway data; the handler reads only message IDs, so stand-ins do. */
function emit<E extends Events.MessageDelete | Events.MessageBulkDelete>(client: Client, event: E, ...args: unknown[]): void {
  client.emit(event, ...(args as ClientEvents[E]));
}

function setUp() {
  // Never logged in: only its events are used.
  const client = new Client({ intents: [] });
  onTestFinished(() => client.destroy());
  const cancellations = new CancellationRegistry();
  cancelOnDelete(client, cancellations, logger);
  return { client, cancellations };
}

describe('cancelOnDelete', () => {
  it('cancels the work a deleted message started, and only that', () => {
    const { client, cancellations } = setUp();
    const mention = cancellations.begin(triggerKey('111'));
    const other = cancellations.begin(triggerKey('222'));
    emit(client, Events.MessageDelete, { id: '111' });
    expect(mention.aborted).toBe(true);
    expect(mention.reason).toBeInstanceOf(CancelledError);
    expect(other.aborted).toBe(false);
  });

  it('cancels every trigger among bulk-deleted messages', () => {
    const { client, cancellations } = setUp();
    const first = cancellations.begin(triggerKey('111'));
    const second = cancellations.begin(triggerKey('333'));
    const messages = new Collection([
      ['111', { id: '111' }],
      ['222', { id: '222' }],
      ['333', { id: '333' }],
    ]);
    emit(client, Events.MessageBulkDelete, messages, { id: 'channel' });
    expect([first.aborted, second.aborted]).toEqual([true, true]);
  });
});
