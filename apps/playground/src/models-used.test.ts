import type { ChatModel, ImageModel } from '@genbot/core/surface';
import { describe, expect, it } from 'vitest';
import { ModelCalls } from './models-used.js';

describe('the models the bots call', () => {
  it('are noted per kind, the latest call winning, and the calls go on unchanged', async () => {
    const asked: string[] = [];
    const client = {
      streamMessage: (request: { model: string }) => {
        asked.push(request.model);
        return { textDeltas: (async function* () {})(), finalMessage: async () => ({}) };
      },
      generateImages: async (model: string) => {
        asked.push(model);
        return [];
      },
    } as unknown as ChatModel & ImageModel;
    const calls = new ModelCalls();
    const watched = calls.watch(client);
    expect(calls.latest()).toEqual({});
    watched.streamMessage({ model: 'chat-a', messages: [], maxTokens: 10 } as never);
    await watched.generateImages('image-a', { prompt: 'a fox' });
    watched.streamMessage({ model: 'chat-b', messages: [], maxTokens: 10 } as never);
    expect(calls.latest()).toEqual({ chat: 'chat-b', image: 'image-a' });
    expect(asked).toEqual(['chat-a', 'image-a', 'chat-b']);
  });
});
