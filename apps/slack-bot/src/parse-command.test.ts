import { describe, expect, it } from 'vitest';
import { parseImagineCommand, parseImagineText } from './parse-command.js';

describe('parseImagineText', () => {
  it.each([
    ['a red fox', { prompt: 'a red fox', aspectRatio: undefined, missingAspectRatio: false }],
    ['a red fox --ar 16:9', { prompt: 'a red fox', aspectRatio: '16:9', missingAspectRatio: false }],
    ['--ar=3:2 a red fox', { prompt: 'a red fox', aspectRatio: '3:2', missingAspectRatio: false }],
    ['a red --AR 1:1 fox', { prompt: 'a red fox', aspectRatio: '1:1', missingAspectRatio: false }],
    ['a red fox --ar', { prompt: 'a red fox', aspectRatio: undefined, missingAspectRatio: true }],
    ['  ', { prompt: '', aspectRatio: undefined, missingAspectRatio: false }],
    ['a--ar 1:1', { prompt: 'a--ar 1:1', aspectRatio: undefined, missingAspectRatio: false }],
  ])('%j', (text, expected) => {
    expect(parseImagineText(text)).toEqual(expected);
  });
});

describe('parseImagineCommand', () => {
  it('reads the fields the bot needs', () => {
    const parsed = parseImagineCommand({
      command: '/imagine',
      text: 'a fox --ar 4:3',
      channel_id: 'C1',
      user_id: 'U1',
      team_id: 'T1',
      trigger_id: '13345224609.738474920.8088930838d88f008e0',
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        channelId: 'C1',
        userId: 'U1',
        workspaceId: 'T1',
        triggerId: '13345224609.738474920.8088930838d88f008e0',
        prompt: 'a fox',
        aspectRatio: '4:3',
        missingAspectRatio: false,
      },
    });
  });

  it('says what does not fit', () => {
    expect(parseImagineCommand({ command: '/imagine', text: 'x' })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('channel_id'),
    });
  });
});
