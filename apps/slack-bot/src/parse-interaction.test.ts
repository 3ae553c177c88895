import { describe, expect, it } from 'vitest';
import { parseBlockActions, parseViewSubmission } from './parse-interaction.js';
import { encodeFormPlace, INSTRUCTION_ACTION, INSTRUCTION_BLOCK } from './result-blocks.js';

function blockActions(message: Record<string, unknown> | undefined) {
  return {
    type: 'block_actions',
    trigger_id: '111.222.abc',
    user: { id: 'U2' },
    team: { id: 'T1' },
    container: { type: 'message', message_ts: '1700.2', channel_id: 'C1', thread_ts: '1700.1' },
    ...(message === undefined ? {} : { message }),
    actions: [{ type: 'button', action_id: 'gb1:v:REF' }],
  };
}

describe('parseBlockActions', () => {
  it('reads where the button was pressed and who posted its message', () => {
    expect(parseBlockActions(blockActions({ ts: '1700.2', user: 'UBOT', bot_id: 'BBOT' }))).toEqual({
      ok: true,
      value: {
        triggerId: '111.222.abc',
        userId: 'U2',
        workspaceId: 'T1',
        channelId: 'C1',
        messageTs: '1700.2',
        threadTs: '1700.1',
        author: { userId: 'UBOT', botId: 'BBOT' },
        actionId: 'gb1:v:REF',
      },
    });
  });

  it('keeps a message posted by a person (no bot id) and one the payload leaves out apart', () => {
    const byPerson = parseBlockActions(blockActions({ ts: '1700.2', user: 'U3' }));
    expect(byPerson.ok && byPerson.value.author).toEqual({ userId: 'U3', botId: undefined });
    const unsaid = parseBlockActions(blockActions(undefined));
    expect(unsaid.ok && unsaid.value.author).toBeUndefined();
  });
});

describe('parseViewSubmission', () => {
  it('gives back the message whose Edit opened the form, carried in private_metadata', () => {
    const place = { state: 'gb1:e:REF', channelId: 'C1', threadTs: '1700.1', messageTs: '1700.2' };
    const parsed = parseViewSubmission({
      type: 'view_submission',
      user: { id: 'U2' },
      team: { id: 'T1' },
      view: {
        id: 'V1',
        private_metadata: encodeFormPlace(place),
        state: { values: { [INSTRUCTION_BLOCK]: { [INSTRUCTION_ACTION]: { value: 'make it blue' } } } },
      },
    });
    expect(parsed).toMatchObject({
      ok: true,
      value: { channelId: 'C1', threadTs: '1700.1', messageTs: '1700.2', instruction: 'make it blue' },
    });
  });
});
