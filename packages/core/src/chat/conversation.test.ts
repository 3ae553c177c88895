import { describe, expect, it } from 'vitest';
import { buildConversation } from './conversation.js';
import { alice, bob, bot, message, otherBot } from '../../testing/thread.js';

describe('buildConversation', () => {
  it("maps the bot's messages to assistant and everyone else's to user with their name", () => {
    const question = message(alice, 'What is 2+2?');
    const answer = message(bot, '4.');
    const weather = message(otherBot, 'Sunny today.');
    const trigger = message(bob, 'And times 3?');
    expect(buildConversation([question, answer, weather, trigger], trigger)).toEqual([
      { role: 'user', content: 'Alice: What is 2+2?' },
      { role: 'assistant', content: '4.' },
      { role: 'user', content: 'Weather: Sunny today.\n\nBob: And times 3?' },
    ]);
  });

  it('merges consecutive turns of one role and starts with a user turn', () => {
    const thread = [
      message(bot, 'Hello, I am the bot.'),
      message(bot, 'Ask me anything.'),
      message(alice, 'Hi'),
      message(bob, 'Hey'),
      message(bot, 'Part one'),
      message(bot, 'Part two'),
    ];
    const trigger = message(alice, 'thanks');
    thread.push(trigger);
    expect(buildConversation(thread, trigger)).toEqual([
      { role: 'user', content: 'Alice: Hi\n\nBob: Hey' },
      { role: 'assistant', content: 'Part one\n\nPart two' },
      { role: 'user', content: 'Alice: thanks' },
    ]);
  });

  it('keeps the trigger when the surface did not return it, and leaves out later messages and empty ones', () => {
    const first = message(alice, 'first');
    const trigger = message(bob, 'the question');
    const later = message(alice, 'posted while we worked');
    expect(buildConversation([first, message(alice, '  '), trigger, later], trigger)).toEqual([
      { role: 'user', content: 'Alice: first\n\nBob: the question' },
    ]);
    expect(buildConversation([first], trigger)).toEqual([
      { role: 'user', content: 'Alice: first\n\nBob: the question' },
    ]);
  });

  it('drops the oldest messages first to stay inside the token budget', () => {
    const thread = Array.from({ length: 10 }, (_, i) => message(i % 2 === 0 ? alice : bot, `${i} ${'x'.repeat(394)}`));
    const trigger = message(alice, 'last');
    // 100 tokens each (400 chars, Alice's with her name slightly more): room for the trigger and about three.
    const conversation = buildConversation([...thread, trigger], trigger, { tokenBudget: 350 });
    const text = conversation.map((turn) => turn.content).join('\n');
    expect(text).toContain('9 x');
    expect(text).toContain('8 x');
    expect(text).not.toContain('5 x');
    expect(text).toContain('Alice: last');
    expect(conversation[0]?.role).toBe('user');
    const tokens = conversation.reduce((sum, turn) => sum + Math.ceil(String(turn.content).length / 4), 0);
    expect(tokens).toBeLessThanOrEqual(360);
  });

  it('shortens the trigger when it alone is over the budget', () => {
    const trigger = message(alice, 'y'.repeat(10_000));
    const [only, ...rest] = buildConversation([message(bob, 'earlier'), trigger], trigger, { tokenBudget: 100 });
    expect(rest).toEqual([]);
    expect(only?.role).toBe('user');
    expect(String(only?.content).startsWith('Alice: yyy')).toBe(true);
    expect(String(only?.content).length).toBeLessThanOrEqual(400);
  });
});
