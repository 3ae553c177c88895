import { SnowflakeUtil } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { conversationWindow, DM_CONVERSATION_MESSAGES, DM_CONVERSATION_WINDOW_MS } from './direct-messages.js';

const NOON = Date.UTC(2026, 10, 20, 12);

/** A message written `minutesBefore` noon, its id made from that time, as Discord's are. */
function written(minutesBefore: number, increment = 0) {
  const createdTimestamp = NOON - minutesBefore * 60_000;
  const id = SnowflakeUtil.generate({ timestamp: createdTimestamp, increment: BigInt(increment) }).toString();
  return { id, createdTimestamp };
}

describe('conversationWindow', () => {
  it('keeps the trigger and what came within the hour before it, oldest first', () => {
    const trigger = written(0);
    const recent = written(59);
    const older = written(61);
    expect(conversationWindow([trigger, older, recent], trigger.id)).toEqual([recent, trigger]);
    expect(DM_CONVERSATION_WINDOW_MS).toBe(60 * 60_000);
  });

  it('measures from the trigger, not the clock, and leaves out what came after it', () => {
    const trigger = written(120);
    const before = written(150);
    const after = written(100);
    expect(conversationWindow([after, trigger, before], trigger.id)).toEqual([before, trigger]);
  });

  it('keeps the last 20 when more were written within the hour', () => {
    const messages = Array.from({ length: 30 }, (_, index) => written(30 - index, index));
    const trigger = messages.at(-1);
    if (trigger === undefined) throw new Error('no messages');
    const kept = conversationWindow(messages, trigger.id);
    expect(kept).toHaveLength(DM_CONVERSATION_MESSAGES);
    expect(kept).toEqual(messages.slice(-20));
  });
});
