import { RateLimitedError, type Clock, type ReplyWriter } from '@genbot/core';
import { describe, expect, it } from 'vitest';
import { NativeStreamWriter, type StreamApi } from './native-stream-writer.js';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** Fake time: sleeping moves the clock on at once. */
function fakeClock(): Clock & { at: number } {
  const clock = {
    at: 0,
    now: () => clock.at,
    sleep: async (ms: number) => {
      clock.at += ms;
      await Promise.resolve();
    },
  };
  return clock;
}

function recordingApi(clock: { now(): number }): StreamApi & { calls: Array<[string, number, string?]> } {
  const calls: Array<[string, number, string?]> = [];
  return {
    calls,
    setStatus: async (_c, _t, status) => void calls.push(['status', clock.now(), status]),
    start: async ({ markdown }) => {
      calls.push(['start', clock.now(), markdown]);
      return '1.0001';
    },
    append: async (_c, _ts, markdown) => void calls.push(['append', clock.now(), markdown]),
    stop: async (_c, _ts, markdown) => void calls.push(['stop', clock.now(), markdown]),
  };
}

function writer(api: StreamApi, clock: Clock, maxChunkChars = 12_000): NativeStreamWriter {
  return new NativeStreamWriter({ api, channel: 'C1', threadTs: '1.0', recipientUserId: 'U1', recipientTeamId: 'T1', logger: silent, clock, maxChunkChars });
}

/** A stream that never starts (`failure` each time), and the writer it falls back to, recording what it got. */
function unstartable(failure: () => Error) {
  const clock = fakeClock();
  const api = recordingApi(clock);
  let starts = 0;
  api.start = async () => {
    starts += 1;
    throw failure();
  };
  const warnings: string[] = [];
  const logger = { ...silent, warn: (_fields: object, message: string) => void warnings.push(message) };
  const calls: string[] = [];
  const fallback: ReplyWriter = {
    append: (delta) => void calls.push(`append ${delta}`),
    finish: async () => void calls.push('finish'),
    fail: async (message) => void calls.push(`fail ${message}`),
  };
  const reply = new NativeStreamWriter({
    api,
    channel: 'C1',
    threadTs: '1.0',
    recipientUserId: 'U1',
    recipientTeamId: 'T1',
    logger,
    clock,
    fallback: () => fallback,
  });
  return { reply, calls, warnings, starts: () => starts };
}

/** Lets the writer's retries (on the fake clock) run their course. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

const sent = (calls: Array<[string, number, string?]>): string =>
  calls.filter(([kind]) => kind !== 'status').map(([, , text]) => text ?? '').join('');

describe('NativeStreamWriter', () => {
  it('shows the status, starts with the first text and stops with the rest, one call a second at most', async () => {
    const clock = fakeClock();
    const api = recordingApi(clock);
    const reply = writer(api, clock);
    reply.append('Hello');
    await new Promise((resolve) => setTimeout(resolve, 5));
    reply.append(', world');
    reply.append('!');
    await reply.finish();
    expect(api.calls).toEqual([
      ['status', 0, 'is thinking…'],
      ['start', 0, 'Hello'],
      ['stop', 1000, ', world!'],
    ]);
  });

  it('splits text longer than one call may carry', async () => {
    const clock = fakeClock();
    const api = recordingApi(clock);
    const reply = writer(api, clock, 4);
    reply.append('abcdefghij');
    await reply.finish();
    expect(api.calls.map(([kind, , text]) => [kind, text])).toEqual([
      ['status', 'is thinking…'],
      ['start', 'abcd'],
      ['append', 'efgh'],
      ['stop', 'ij'],
    ]);
  });

  it('closes an open code block before the error line', async () => {
    const clock = fakeClock();
    const api = recordingApi(clock);
    const reply = writer(api, clock);
    reply.append('```ts\nconst a = 1;');
    await reply.fail('It broke.');
    expect(sent(api.calls)).toBe('```ts\nconst a = 1;\n```\n\nIt broke.');
  });

  it('shows the error line alone when no text came', async () => {
    const clock = fakeClock();
    const api = recordingApi(clock);
    await writer(api, clock).fail('Nothing to say.');
    expect(api.calls.map(([kind, , text]) => [kind, text])).toEqual([
      ['status', 'is thinking…'],
      ['start', 'Nothing to say.'],
      ['stop', undefined],
    ]);
  });

  describe('when the stream cannot start', () => {
    const notOffered = () => Object.assign(new Error('An API error occurred: not_allowed'), { code: 'slack_webapi_platform_error' });

    it('falls back after its retries with everything appended so far, then takes the rest', async () => {
      const { reply, calls, warnings, starts } = unstartable(notOffered);
      reply.append('Hello');
      reply.append(', world');
      await settle();
      reply.append('!');
      await reply.finish();
      expect(starts()).toBe(4);
      expect(calls).toEqual(['append Hello, world', 'append !', 'finish']);
      expect(warnings).toHaveLength(1);
    });

    it('hands a failure after the fallback to the fallback writer', async () => {
      const { reply, calls } = unstartable(notOffered);
      reply.append('```ts\nconst a = 1;');
      await settle();
      await reply.fail('It broke.');
      expect(calls).toEqual(['append ```ts\nconst a = 1;', 'fail It broke.']);
    });

    it('gives the fallback the error line when it came before the stream could start', async () => {
      const { reply, calls } = unstartable(notOffered);
      await reply.fail('Nothing to say.');
      expect(calls).toEqual(['append Nothing to say.', 'finish']);
    });

    it('does not fall back on a rate limit it could not wait out: the reply fails', async () => {
      const { reply, calls, warnings } = unstartable(() => new RateLimitedError(10 * 60_000));
      reply.append('Hello');
      await expect(reply.finish()).rejects.toBeInstanceOf(RateLimitedError);
      expect(calls).toEqual([]);
      expect(warnings).toEqual([]);
    });
  });
});
