import { Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createLogger, logFormatFor, REDACTED } from './logger.js';

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
    logger.info(
      {
        request: {
          headers: { Authorization: 'Bearer abc', 'x-api-key': 'k1', 'X-Goog-Api-Key': ['k2'], accept: 'json' },
        },
      },
      'sent',
    );
    const line = JSON.parse(text()) as { request: { headers: Record<string, unknown> } };
    expect(line.request.headers).toEqual({
      Authorization: REDACTED,
      'x-api-key': REDACTED,
      'X-Goog-Api-Key': REDACTED,
      accept: 'json',
    });
  });

  it('honours the level and the name', () => {
    const { stream, text } = capture();
    const logger = createLogger({ level: 'warn', name: 'genbot', destination: stream });
    logger.info('hidden');
    logger.warn('shown');
    const lines = text()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; name: string });
    expect(lines).toEqual([expect.objectContaining({ msg: 'shown', name: 'genbot' })]);
  });

  it('writes one human line an entry in the pretty format, redacted like the JSON, with no JSON object left', () => {
    const { stream, text } = capture();
    const logger = createLogger({ format: 'pretty', secrets: [KEY], destination: stream });
    logger.info({ component: 'slack-bot', port: 3000 }, 'Slack bot started');
    logger.warn({ token: KEY }, `refused ${KEY}`);
    // Colours depend on NO_COLOR; the words do not.
    const lines = stripVTControlCharacters(text()).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Slack bot started component=slack-bot port=3000$/);
    expect(lines[1]).toMatch(/^\[[\d:.]+\] WARN: refused \[REDACTED\] token=\[REDACTED\]$/);
    expect(text()).not.toContain('sk-test-Zq9');
    expect(text()).not.toMatch(/[{}]/);
  });
});

describe('logFormatFor', () => {
  it('is pretty for a terminal and JSON for anything else', () => {
    expect(logFormatFor({ isTTY: true })).toBe('pretty');
    expect(logFormatFor({ isTTY: false })).toBe('json');
    // A pipe or a file: Node leaves isTTY unset.
    expect(logFormatFor({})).toBe('json');
  });

  it('is what createLogger picks when no format is given: a destination that is no terminal gets JSON', () => {
    const { stream, text } = capture();
    createLogger({ destination: stream }).info('plain');
    expect(JSON.parse(text())).toMatchObject({ msg: 'plain' });
  });
});
