import { describe, expect, it } from 'vitest';
import { turnJobId } from './handlers/conversation-turn.js';
import { isDirectMessageChannel, parseDirectMessage } from './parse-direct-message.js';

const identity = { userId: 'UBOT', botId: 'BBOT', teamId: 'T1', name: 'genbot' };

/** A message.im event_callback as docs.slack.dev shows it. */
function dm(event: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    team_id: 'T1',
    event_id: 'Ev1',
    type: 'event_callback',
    event: {
      type: 'message',
      channel: 'D024BE91L',
      user: 'U1',
      text: 'Hello hello can you hear me?',
      ts: '1355517523.000005',
      event_ts: '1355517523.000005',
      channel_type: 'im',
      ...event,
    },
  };
}

describe('parseDirectMessage', () => {
  it('reads a top-level DM as a turn answered in a thread of its own', () => {
    expect(parseDirectMessage(dm(), identity)).toEqual({
      ok: true,
      value: {
        eventId: 'Ev1',
        workspaceId: 'T1',
        channel: 'D024BE91L',
        ts: '1355517523.000005',
        threadTs: '1355517523.000005',
        userId: 'U1',
        text: 'Hello hello can you hear me?',
        files: [],
      },
    });
  });

  it('answers a DM in a thread in that thread', () => {
    const parsed = parseDirectMessage(dm({ thread_ts: '1355517500.000001' }), identity);
    expect(parsed.ok && parsed.value?.threadTs).toBe('1355517500.000001');
  });

  it('takes a file_share with its files', () => {
    const files = [{ id: 'F1', name: 'cat.png', mimetype: 'image/png', url_private: 'https://files/cat.png' }];
    const parsed = parseDirectMessage(dm({ subtype: 'file_share', text: 'what is in this?', files }), identity);
    expect(parsed.ok && parsed.value).toMatchObject({ text: 'what is in this?', files });
  });

  it.each([
    ['an edit', { subtype: 'message_changed', message: { ts: '1', text: 'x' } }],
    ['a deletion', { subtype: 'message_deleted', deleted_ts: '1355517523.000005' }],
    ['a broadcast of a thread reply', { subtype: 'thread_broadcast' }],
    ['the first message of an assistant thread', { subtype: 'assistant_app_thread' }],
    ["the bot's own message", { user: 'UBOT', bot_id: 'BBOT' }],
    ["another app's message", { user: undefined, bot_id: 'B9', subtype: 'bot_message' }],
    ["a bot user's message", { user: 'U9', bot_id: 'B9' }],
    ['a channel message', { channel: 'C1', channel_type: 'channel' }],
    ['a private channel message', { channel: 'G1', channel_type: 'group' }],
    ['a group DM message', { channel: 'G2', channel_type: 'mpim' }],
  ])('is no turn for %s', (_what, event) => {
    expect(parseDirectMessage(dm(event), identity)).toEqual({ ok: true, value: undefined });
  });

  it('names what is wrong with a DM it cannot read', () => {
    const parsed = parseDirectMessage(dm({ ts: 5 }), identity);
    expect(parsed).toEqual({ ok: false, problem: expect.stringContaining('event.ts') });
  });
});

describe('the job of a turn', () => {
  it("is named by a DM's message, so an app_mention of it besides message.im is the same job", () => {
    const message = { channel: 'D024BE91L', ts: '1355517523.000005' };
    expect(turnJobId({ ...message, eventId: 'EvMessage' })).toBe(turnJobId({ ...message, eventId: 'EvMention' }));
    expect(turnJobId({ ...message, eventId: 'EvMessage' })).toBe('slack-msg-D024BE91L-1355517523.000005');
  });

  it("is named by a channel mention's event, or its message when a hand-built payload has no event id", () => {
    expect(turnJobId({ channel: 'C1', ts: '1.2', eventId: 'Ev9' })).toBe('slack-ev-Ev9');
    expect(turnJobId({ channel: 'C1', ts: '1.2', eventId: undefined })).toBe('slack-msg-C1-1.2');
  });

  it('tells a DM by its ID', () => {
    expect(['D024BE91L', 'C1', 'G1'].map(isDirectMessageChannel)).toEqual([true, false, false]);
  });
});
