import { randomBytes } from 'node:crypto';
import { GenAiClient } from '@genbot/core/genai';
import type { ServiceConfig } from '@genbot/core/config';
import type { Logger } from '@genbot/core/log';
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
  const limits = {
    imageTimeoutMs: service.imageTimeoutMs,
    textTimeoutMs: service.textTimeoutMs,
    streamTimeoutMs: service.streamTimeoutMs,
    maxResponseBytes: service.maxResponseBytes,
  };
  const { endpoint } = service;
  if (endpoint !== undefined) {
    const client = new GenAiClient({ ...endpoint, logger, ...limits });
    return { client, baseUrl: endpoint.baseUrl, emulated: false, close: async () => client.close() };
  }

  // A fresh random key keeps the emulator's credential checks meaningful even though nobody configured one.
  const apiKey = randomBytes(24).toString('hex');
  const emulator = await startEmulator({
    apiKey,
    recordRequests: false,
    logger: logger.child({ component: 'emulator' }),
  });
  const client = new GenAiClient({ baseUrl: emulator.url, apiKey, logger, ...limits });
  // Info, not a warning: the emulator is the documented default, and the launcher's summary names it too.
  logger.info({ url: emulator.url }, `GENAI_BASE_URL is unset: using the offline emulator at ${emulator.url}`);
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
