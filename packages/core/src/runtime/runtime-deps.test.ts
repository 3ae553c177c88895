import { describe, expect, it } from 'vitest';
import { GenAiClient } from '../genai/index.js';
import { createLogger } from '../log/index.js';
import { RecordingSurface } from '../../testing/recording-surface.js';
import { BotRuntime } from './bot-runtime.js';
import { runtimeDeps } from './runtime-deps.js';

const logger = createLogger({ level: 'silent' });

describe('runtimeDeps', () => {
  it('gives every invocation the runtime’s channel budget and scheduler, the models, and its own surface', async () => {
    const runtime = new BotRuntime();
    // Never called: the deps only hold it.
    const client = new GenAiClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'unused' });
    try {
      const depsFor = runtimeDeps(
        runtime,
        { client, chatModel: 'chat-m', imageModel: 'image-m' },
        { maxReplyChars: 500 },
      );
      const [first, second] = [new RecordingSurface(), new RecordingSurface()];
      const a = depsFor(first, logger);
      const b = depsFor(second, logger);
      expect(a.surface).toBe(first);
      expect(b.surface).toBe(second);
      expect(a.channels).toBe(runtime.channels);
      expect(b.scheduler).toBe(runtime.scheduler);
      expect(a.images).toBe(client);
      expect(a.config).toEqual({ imageModel: 'image-m', chatModel: 'chat-m', maxReplyChars: 500 });
      expect(runtimeDeps(runtime, { client, chatModel: 'c', imageModel: 'i' })(first, logger).config).toEqual({
        imageModel: 'i',
        chatModel: 'c',
      });
    } finally {
      await client.close();
    }
  });
});
