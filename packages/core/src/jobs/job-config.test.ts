import { describe, expect, it } from 'vitest';
import type { ChatConfig } from '../chat/deps.js';
import type { ChatJob } from './chat-job.js';
import { settingsPlaceOf } from './chat-job.js';
import { configOf } from './job-config.js';

const base: ChatConfig = { imageModel: 'img', chatModel: 'chat', system: 'From CHAT_SYSTEM_PROMPT.', maxTokens: 100 };

const job: ChatJob = {
  id: 'j1',
  platform: 'slack',
  workspaceId: 'T1',
  channelId: 'C1',
  userId: 'U1',
  input: { kind: 'imagine', imagine: { target: { channelId: 'C1' }, prompt: 'a fox', userId: 'U1' } },
};

describe('configOf', () => {
  it("runs a job on the models, system prompt, ratio and count it was accepted under, the rest the operator's", () => {
    const settings = { chatModel: 'chat-b', imageModel: 'img-b', aspectRatio: '16:9' as const, images: 3 };
    expect(configOf({ ...job, settings }, base)).toEqual({
      imageModel: 'img-b',
      chatModel: 'chat-b',
      // None in the settings: the place resolved none, not even CHAT_SYSTEM_PROMPT, so the built-in one.
      system: undefined,
      maxTokens: 100,
      images: 3,
      aspectRatio: '16:9',
    });
    expect(configOf({ ...job, settings: { ...settings, systemPrompt: 'Be a pirate.' } }, base).system).toBe(
      'Be a pirate.',
    );
  });

  it("runs a job recorded without settings on the operator's", () => {
    expect(configOf(job, base)).toBe(base);
  });
});

describe('settingsPlaceOf', () => {
  it('takes a Slack D channel and a Discord job without a server as DMs, every other as a channel', () => {
    expect(settingsPlaceOf(job)).toEqual({ platform: 'slack', workspaceId: 'T1', channelId: 'C1', dm: false });
    expect(settingsPlaceOf({ ...job, channelId: 'D1' }).dm).toBe(true);
    expect(settingsPlaceOf({ platform: 'discord', workspaceId: undefined, channelId: '9' }).dm).toBe(true);
    expect(settingsPlaceOf({ platform: 'discord', workspaceId: 'G1', channelId: '9' }).dm).toBe(false);
  });
});
