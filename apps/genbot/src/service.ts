import { randomBytes } from 'node:crypto';
import { ConfigError, GenAiClient, type ServiceConfig } from '@genbot/core';
import type { Logger } from '@genbot/core';
import { startEmulator } from '@genbot/emulator';

/** A client ready to use, and whether it talks to the real service or the in-process emulator. */
export interface OpenService {
  client: GenAiClient;
  baseUrl: string;
  emulated: boolean;
  /** Closes the client, then the emulator when one was started. */
  close(): Promise<void>;
}

/**
 * Connects to the configured service, or, with no base URL configured, starts the offline emulator
 * in this process and points the client at it. Shared by the CLI and the bot launcher.
 */
export async function openService(service: ServiceConfig, logger: Logger): Promise<OpenService> {
  const timeouts = { imageTimeoutMs: service.imageTimeoutMs, textTimeoutMs: service.textTimeoutMs };
  if (service.baseUrl !== undefined) {
    if (service.apiKey === undefined) {
      throw new ConfigError('GENAI_API_KEY is required when GENAI_BASE_URL is set.', { variable: 'GENAI_API_KEY' });
    }
    const client = new GenAiClient({ baseUrl: service.baseUrl, apiKey: service.apiKey, logger, ...timeouts });
    return { client, baseUrl: service.baseUrl, emulated: false, close: async () => client.close() };
  }

  // A fresh random key keeps the emulator's credential checks meaningful even though nobody configured one.
  const apiKey = randomBytes(24).toString('hex');
  const emulator = await startEmulator({ apiKey, recordRequests: false, logger: logger.child({ component: 'emulator' }) });
  const client = new GenAiClient({ baseUrl: emulator.url, apiKey, logger, ...timeouts });
  // Logged at warn, not info: replies are canned and whoever runs this must see that at any default level.
  logger.warn({ url: emulator.url }, `GENAI_BASE_URL is unset: using the offline emulator at ${emulator.url}`);
  return {
    client,
    baseUrl: emulator.url,
    emulated: true,
    close: async () => {
      await client.close();
      await emulator.close();
    },
  };
}
