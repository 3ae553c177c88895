import { systemPromptFor } from '@genbot/core/chat';
import type { MessagesRequest } from '@genbot/core/genai';
import { describe, expect, it } from 'vitest';
import { CHANNEL, requestSeen, useHarness } from './support/harness.js';

describe('Slack: what a conversation asks the model with', () => {
  const h = useHarness({ mode: 'http' });

  it('the built-in system prompt naming Slack and today, the default max_tokens, and a user that is no Slack ID', async () => {
    const { slack, emulator } = h();
    const since = emulator.requests.length;
    const before = new Date();
    await slack.userSays({ user: 'U1', channel: CHANNEL, text: '<@UBOT> what can you do?' });
    const request = (await requestSeen(h(), /\/v1\/messages$/, since)) as MessagesRequest;
    const after = new Date();
    // Either side of a UTC midnight the test may straddle.
    const expected = [before, after].map((now) =>
      systemPromptFor({ configured: undefined, platform: 'slack', now, tools: true }),
    );
    expect(expected).toContain(request.system);
    expect(request.system).toContain('You are genbot, an assistant in Slack.');
    expect(request.max_tokens).toBe(4_096);
    expect(request.metadata?.user_id).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(request.metadata)).not.toContain('U1');
  });
});
