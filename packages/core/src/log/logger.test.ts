import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, REDACTED } from './logger.js';

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

const KEY = 'sk-test-Zq9"\\xY';

describe('createLogger', () => {
  it('replaces every secret value anywhere in a line', () => {
    const { stream, text } = capture();
    const logger = createLogger({ level: 'debug', secrets: [KEY, undefined, 'xoxb-123'], destination: stream });
    logger.info({ nested: { deep: [`token=${KEY}`] }, bot: 'xoxb-123' }, `key is ${KEY}`);
    logger.error({ err: new Error(`failed with ${KEY}`) }, 'boom');
    logger.warn(new Error(`direct ${KEY}`));
    const output = text();
    expect(output).not.toContain('sk-test-Zq9');
    expect(output).not.toContain('xoxb-123');
    expect(output.split(REDACTED).length - 1).toBeGreaterThanOrEqual(6);
    for (const line of output.trim().split('\n')) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });

  it('redacts credential headers whatever their value', () => {
    const { stream, text } = capture();
    const logger = createLogger({ destination: stream });
    logger.info({ request: { headers: { Authorization: 'Bearer abc', 'x-api-key': 'k1', 'X-Goog-Api-Key': ['k2'], accept: 'json' } } }, 'sent');
    const line = JSON.parse(text()) as { request: { headers: Record<string, unknown> } };
    expect(line.request.headers).toEqual({ Authorization: REDACTED, 'x-api-key': REDACTED, 'X-Goog-Api-Key': REDACTED, accept: 'json' });
  });

  it('honours the level and the name', () => {
    const { stream, text } = capture();
    const logger = createLogger({ level: 'warn', name: 'genbot', destination: stream });
    logger.info('hidden');
    logger.warn('shown');
    const lines = text().trim().split('\n').map((l) => JSON.parse(l) as { msg: string; name: string });
    expect(lines).toEqual([expect.objectContaining({ msg: 'shown', name: 'genbot' })]);
  });
});
