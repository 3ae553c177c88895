import { describe, expect, it } from 'vitest';
import { parseAppMention } from './parse-app-mention.js';
import { toAttachments } from './parse-files.js';

const event = {
  type: 'app_mention',
  user: 'U1',
  text: '<@UBOT> make it grey',
  ts: '1700000000.000200',
  channel: 'C1',
  team: 'T1',
  event_ts: '1700000000.000200',
};

describe('parseAppMention', () => {
  it('reads a top-level mention: its own ts is the thread', () => {
    const parsed = parseAppMention({ event_id: 'Ev1', team_id: 'T1', event });
    expect(parsed).toEqual({
      ok: true,
      value: {
        eventId: 'Ev1',
        workspaceId: 'T1',
        channel: 'C1',
        ts: '1700000000.000200',
        threadTs: '1700000000.000200',
        userId: 'U1',
        fromBot: false,
        text: '<@UBOT> make it grey',
        files: [],
      },
    });
  });

  it('answers in the thread the mention is in', () => {
    const parsed = parseAppMention({ event_id: 'Ev2', event: { ...event, thread_ts: '1699999999.000100' } });
    expect(parsed.ok && parsed.value.threadTs).toBe('1699999999.000100');
  });

  it('marks messages of bots', () => {
    const parsed = parseAppMention({
      event_id: 'Ev3',
      event: { ...event, user: undefined, bot_id: 'B9', subtype: 'bot_message' },
    });
    expect(parsed.ok && parsed.value).toMatchObject({ fromBot: true, userId: undefined });
  });

  it('keeps downloadable files as attachments, and a file that cannot be had as one whose download says why', () => {
    const files = [
      {
        id: 'F1',
        name: 'cat.png',
        mimetype: 'image/png',
        size: 120,
        url_private: 'https://files.slack.com/files-pri/T1-F1/cat.png',
      },
      { id: 'F2', mode: 'tombstone' },
    ];
    const parsed = parseAppMention({ event_id: 'Ev4', event: { ...event, files } });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(toAttachments(parsed.value.files)).toEqual([
      { id: 'https://files.slack.com/files-pri/T1-F1/cat.png', name: 'cat.png', mimeType: 'image/png', size: 120 },
      { id: 'slack-unavailable:deleted', name: 'the file' },
    ]);
  });

  it('says what does not fit', () => {
    const parsed = parseAppMention({ event_id: 'Ev5', event: { ...event, channel: 42 } });
    expect(parsed).toEqual({ ok: false, problem: expect.stringContaining('event.channel') });
  });
});
