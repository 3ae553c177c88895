import { describe, expect, it } from 'vitest';
import { parseMessageDeleted } from './parse-message-deleted.js';

// As Slack sends it for message.channels (and .groups, .im, .mpim) subscriptions.
const deleted = {
  type: 'message',
  subtype: 'message_deleted',
  hidden: true,
  channel: 'C1',
  ts: '1700000000.000900',
  deleted_ts: '1700000000.000200',
  event_ts: '1700000000.000900',
  channel_type: 'channel',
  previous_message: { type: 'message', user: 'U1', text: '<@UBOT> tell me a story', ts: '1700000000.000200' },
};

describe('parseMessageDeleted', () => {
  it('reads the channel and the ts of the deleted message', () => {
    expect(parseMessageDeleted({ event_id: 'Ev1', event: deleted })).toEqual({
      ok: true,
      value: { channel: 'C1', deletedTs: '1700000000.000200' },
    });
  });

  it('passes over other message events', () => {
    const posted = { type: 'message', user: 'U1', text: 'hello', ts: '1700000000.000300', channel: 'C1' };
    expect(parseMessageDeleted({ event: posted })).toEqual({ ok: true, value: undefined });
    expect(parseMessageDeleted({ event: { ...posted, subtype: 'message_changed' } })).toEqual({
      ok: true,
      value: undefined,
    });
  });

  it('says what does not fit in a deletion', () => {
    const { deleted_ts: _gone, ...withoutTs } = deleted;
    expect(parseMessageDeleted({ event: withoutTs })).toEqual({
      ok: false,
      problem: expect.stringContaining('event.deleted_ts'),
    });
  });

  it('says when the body is not a message event at all', () => {
    expect(parseMessageDeleted({ event: { type: 'app_mention' } })).toEqual({
      ok: false,
      problem: expect.stringContaining('event.type'),
    });
  });
});
