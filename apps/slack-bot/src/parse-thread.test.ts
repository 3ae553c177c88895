import { describe, expect, it } from 'vitest';
import { parseIdentity, parseRepliesPage, parseUserName } from './parse-thread.js';

describe('parseRepliesPage', () => {
  it('reads messages and the next cursor', () => {
    const parsed = parseRepliesPage({
      ok: true,
      messages: [
        { type: 'message', ts: '1.1', user: 'U1', text: 'hi' },
        { ts: '1.2', bot_id: 'BBOT', user: 'UBOT', text: 'hello' },
      ],
      has_more: true,
      response_metadata: { next_cursor: 'b2Zmc2V0OjI=' },
    });
    expect(parsed.ok && parsed.value.nextCursor).toBe('b2Zmc2V0OjI=');
    expect(parsed.ok && parsed.value.messages.map((m) => m.ts)).toEqual(['1.1', '1.2']);
  });

  it('has no next page when the cursor is empty', () => {
    const parsed = parseRepliesPage({ ok: true, messages: [], response_metadata: { next_cursor: '' } });
    expect(parsed).toEqual({ ok: true, value: { messages: [], nextCursor: undefined } });
  });

  it('says what does not fit', () => {
    expect(parseRepliesPage({ messages: [{ text: 'no ts' }] })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('messages.0.ts'),
    });
  });
});

describe('parseIdentity and parseUserName', () => {
  it('reads auth.test', () => {
    expect(parseIdentity({ ok: true, user_id: 'UBOT', bot_id: 'BBOT', team_id: 'T1', user: 'genbot' })).toEqual({
      ok: true,
      value: { userId: 'UBOT', botId: 'BBOT', teamId: 'T1', name: 'genbot' },
    });
  });

  it('prefers the display name, then the real name', () => {
    expect(parseUserName({ user: { name: 'bob', real_name: 'Bob Example', profile: { display_name: 'Bob' } } })).toBe(
      'Bob',
    );
    expect(parseUserName({ user: { name: 'bob', real_name: 'Bob Example', profile: { display_name: '' } } })).toBe(
      'Bob Example',
    );
    expect(parseUserName({ nope: true })).toBeUndefined();
  });
});
