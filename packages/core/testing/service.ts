import { Writable } from 'node:stream';
import { startEmulator, type Emulator } from '@genbot/emulator';
import pino from 'pino';
import { GenAiClient } from '../src/genai/client.js';
import { ChannelBudget } from '../src/rendering/channel-budget.js';
import type { ChatDeps } from '../src/chat/deps.js';
import type { ChatSurface } from '../src/surface/surface.js';

export const API_KEY = 'test-key-d0e1f2a3b4c5';

/** The real emulator and a real client over loopback, plus a logger whose lines the test can read. */
export interface Service {
  emulator: Emulator;
  client: GenAiClient;
  logLines: string[];
  deps(surface: ChatSurface): ChatDeps;
  close(): Promise<void>;
}

export async function startService(): Promise<Service> {
  const emulator = await startEmulator({ apiKey: API_KEY, streamDelayMs: 2 });
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = pino({ level: 'debug' }, sink);
  const client = new GenAiClient({
    baseUrl: emulator.url,
    apiKey: API_KEY,
    logger,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
  });
  return {
    emulator,
    client,
    logLines,
    deps: (surface) => ({
      surface,
      images: client,
      chat: client,
      config: { imageModel: 'image-model-test', chatModel: 'chat-model-test', maxTokens: 4_096 },
      logger,
      channels: new ChannelBudget(),
    }),
    async close() {
      await client.close();
      await emulator.close();
    },
  };
}
