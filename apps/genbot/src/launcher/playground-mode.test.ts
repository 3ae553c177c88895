import type { OperatorSettings } from '@genbot/core/settings';
import { describe, expect, it } from 'vitest';
import { PLAYGROUND_MODELS, playgroundOperator } from './playground-mode.js';

const operator: OperatorSettings = {
  chatModels: ['chat-a'],
  imageModels: ['image-a'],
  chatModel: 'chat-a',
  imageModel: 'image-a',
  systemPrompt: undefined,
  budgetImagesPerDay: undefined,
  budgetChatTokensPerDay: undefined,
};

describe('the models the playground offers a channel', () => {
  it('adds a second of each kind with the offline emulator, the configured one still the default', () => {
    expect(playgroundOperator(operator, true)).toEqual({
      ...operator,
      chatModels: ['chat-a', PLAYGROUND_MODELS.chat],
      imageModels: ['image-a', PLAYGROUND_MODELS.image],
    });
  });

  it('keeps the lists an operator gave, and a real service’s models as configured', () => {
    const listed = { ...operator, chatModels: ['chat-a', 'chat-b'], imageModels: ['image-a', 'image-b'] };
    expect(playgroundOperator(listed, true)).toEqual(listed);
    expect(playgroundOperator(operator, false)).toEqual(operator);
  });
});
