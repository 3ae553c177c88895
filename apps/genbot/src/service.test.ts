import { Writable } from 'node:stream';
import { loadConfig } from '@genbot/core/config';
import { createLogger } from '@genbot/core/log';
import { startEmulator } from '@genbot/emulator';
import { describe, expect, it } from 'vitest';
import { openService } from './service.js';

function capturedLogger(): { logger: ReturnType<typeof createLogger>; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return {
    logger: createLogger({ level: 'info', destination }),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('openService', () => {
  it('starts the emulator in-process when no base URL is configured, and says so once', async () => {
    const { logger, lines } = capturedLogger();
    const service = await openService(loadConfig({}).service, logger);
    try {
      expect(service.emulated).toBe(true);
      expect(service.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await service.client.generateText('any-model', 'ping')).toContain('ping');
      const notices = lines().filter((line) => String(line.msg).includes('offline emulator'));
      expect(notices).toHaveLength(1);
      expect(notices[0]?.msg).toContain(service.baseUrl);
    } finally {
      await service.close();
    }
  });

  it('uses the configured base URL and key', async () => {
    const emulator = await startEmulator({ apiKey: 'configured-key' });
    const { logger, lines } = capturedLogger();
    const config = loadConfig({ GENAI_BASE_URL: emulator.url, GENAI_API_KEY: 'configured-key' });
    const service = await openService(config.service, logger);
    try {
      expect(service.emulated).toBe(false);
      expect(await service.client.generateText('any-model', 'ping')).toContain('ping');
      expect(emulator.requests[0]?.headers['x-goog-api-key']).toBe('configured-key');
      expect(lines()).toEqual([]);
    } finally {
      await service.close();
      await emulator.close();
    }
  });
});
