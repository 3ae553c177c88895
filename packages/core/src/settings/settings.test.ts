import { describe, expect, it } from 'vitest';
import { MAX_SYSTEM_PROMPT_CHARS, type OperatorSettings, parseSetting } from './catalogue.js';
import { resolveSettings } from './resolve-settings.js';

const operator: OperatorSettings = {
  chatModels: ['claude-sonnet-5', 'claude-haiku-5'],
  imageModels: ['gemini-3.1-flash-lite-image', 'gemini-3-pro-image'],
  chatModel: 'claude-sonnet-5',
  imageModel: 'gemini-3.1-flash-lite-image',
  systemPrompt: undefined,
  budgetImagesPerDay: 200,
  budgetChatTokensPerDay: undefined,
};

describe('resolveSettings', () => {
  it("takes a channel's value over its workspace's, and the workspace's over the operator's", () => {
    const resolved = resolveSettings(
      {
        chat_model: { channel: 'claude-haiku-5', workspace: 'claude-sonnet-5' },
        system_prompt: { workspace: 'You are the docs team’s helper.' },
        images: { channel: 3 },
      },
      operator,
    );
    expect(resolved.values).toEqual({
      chat_model: 'claude-haiku-5',
      image_model: 'gemini-3.1-flash-lite-image',
      system_prompt: 'You are the docs team’s helper.',
      aspect_ratio: undefined,
      images: 3,
      enabled: true,
      budget_images_per_day: 200,
      budget_chat_tokens_per_day: undefined,
    });
    expect(resolved.from).toMatchObject({
      chat_model: 'channel',
      image_model: 'default',
      system_prompt: 'workspace',
      images: 'channel',
      enabled: 'default',
    });
  });

  it('passes over a stored value that no longer fits, to the next level', () => {
    const resolved = resolveSettings(
      {
        chat_model: { channel: 'a-model-taken-off-the-list', workspace: 'claude-haiku-5' },
        aspect_ratio: { channel: '7:3' },
        images: { channel: 9 },
        enabled: { channel: 'off' },
      },
      operator,
    );
    expect(resolved.values).toMatchObject({
      chat_model: 'claude-haiku-5',
      aspect_ratio: undefined,
      images: 1,
      enabled: true,
    });
    expect(resolved.from).toMatchObject({ chat_model: 'workspace', aspect_ratio: 'default', images: 'default' });
  });

  it("keeps a budget to the workspace, and never above the operator's", () => {
    const resolved = resolveSettings(
      { budget_images_per_day: { channel: 5, workspace: 500 }, budget_chat_tokens_per_day: { workspace: 10_000 } },
      operator,
    );
    expect(resolved.values.budget_images_per_day).toBe(200);
    expect(resolved.from.budget_images_per_day).toBe('workspace');
    expect(resolved.values.budget_chat_tokens_per_day).toBe(10_000);
  });
});

describe('parseSetting', () => {
  it('takes a model from its list only, and says which it may be', () => {
    expect(parseSetting('chat_model', ' claude-haiku-5 ', operator)).toEqual({ ok: true, value: 'claude-haiku-5' });
    const refused = parseSetting('image_model', 'dall-e', operator);
    expect(refused).toEqual({
      ok: false,
      answer: '`image_model` can be one of: `gemini-3.1-flash-lite-image`, `gemini-3-pro-image`. Nothing changed.',
    });
  });

  it.each([
    ['images', '0'],
    ['images', '5'],
    ['images', 'two'],
    ['aspect_ratio', '7:3'],
    ['enabled', 'maybe'],
    ['system_prompt', ''],
    ['system_prompt', 'x'.repeat(MAX_SYSTEM_PROMPT_CHARS + 1)],
    ['budget_images_per_day', '201'],
    ['budget_images_per_day', '-1'],
  ] as const)('refuses %s = %j with words that say what fits', (name, typed) => {
    const parsed = parseSetting(name, typed, operator);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.answer).toMatch(/Nothing changed\.$/);
  });

  it('reads on and off, counts and ratios into what the store keeps', () => {
    expect(parseSetting('enabled', 'OFF', operator)).toEqual({ ok: true, value: false });
    expect(parseSetting('images', '4', operator)).toEqual({ ok: true, value: 4 });
    expect(parseSetting('aspect_ratio', '16:9', operator)).toEqual({ ok: true, value: '16:9' });
    expect(parseSetting('budget_images_per_day', '200', operator)).toEqual({ ok: true, value: 200 });
    expect(parseSetting('budget_chat_tokens_per_day', '1000000', operator)).toEqual({ ok: true, value: 1_000_000 });
    expect(parseSetting('system_prompt', '  Be brief.  ', operator)).toEqual({ ok: true, value: 'Be brief.' });
  });
});
