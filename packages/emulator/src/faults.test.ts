import { describe, expect, it } from 'vitest';
import { readDirectives } from './directives.js';
import { FaultCounter, parseFaultSpec } from './faults.js';

describe('parseFaultSpec', () => {
  it('reads kinds, values and counts', () => {
    expect(parseFaultSpec('429')).toEqual({
      fault: { kind: 'status', status: 429, retryAfterSeconds: 1 },
      times: undefined,
    });
    expect(parseFaultSpec('429=0*3')).toEqual({
      fault: { kind: 'status', status: 429, retryAfterSeconds: 0 },
      times: 3,
    });
    expect(parseFaultSpec('slow')).toEqual({ fault: { kind: 'slow', ms: 3000 }, times: undefined });
    expect(parseFaultSpec('slow=250')?.fault).toEqual({ kind: 'slow', ms: 250 });
    expect(parseFaultSpec('no-image=IMAGE_SAFETY')?.fault).toEqual({ kind: 'no-image', finishReason: 'IMAGE_SAFETY' });
    expect(parseFaultSpec('stream-cut*1')).toEqual({ fault: { kind: 'stream-cut' }, times: 1 });
    expect(parseFaultSpec('huge-error')?.fault).toEqual({ kind: 'huge-error', megabytes: 200 });
    expect(parseFaultSpec('huge-error=5')?.fault).toEqual({ kind: 'huge-error', megabytes: 5 });
    for (const kind of ['endless-line', 'only-pings', 'safety-stop'] as const) {
      expect(parseFaultSpec(kind)?.fault).toEqual({ kind });
    }
  });

  it('rejects what it does not know', () => {
    expect(parseFaultSpec('418')).toBeUndefined();
    expect(parseFaultSpec('500=2')).toBeUndefined();
    expect(parseFaultSpec('slow=soon')).toBeUndefined();
    expect(parseFaultSpec('reset=1')).toBeUndefined();
    expect(parseFaultSpec('huge-error=big')).toBeUndefined();
    expect(parseFaultSpec('only-pings=5')).toBeUndefined();
  });
});

describe('FaultCounter', () => {
  it('fails the first N identical requests, counting each request body on its own', () => {
    const counter = new FaultCounter();
    const attempt = (body: string) => counter.choose(undefined, '503*2', '/v1/messages', Buffer.from(body));
    expect(attempt('a')).toMatchObject({ ok: true, fault: { kind: 'status', status: 503 } });
    expect(attempt('b')).toMatchObject({ ok: true, fault: { kind: 'status' } });
    expect(attempt('a')).toMatchObject({ ok: true, fault: { kind: 'status' } });
    expect(attempt('a')).toEqual({ ok: true, fault: undefined });
    expect(attempt('b')).toMatchObject({ ok: true, fault: { kind: 'status' } });
  });

  it('lets the header win over the prompt', () => {
    const choice = new FaultCounter().choose('reset', '500', '/x', Buffer.alloc(0));
    expect(choice).toEqual({ ok: true, fault: { kind: 'reset' } });
  });
});

describe('readDirectives', () => {
  it('finds every directive anywhere in the text', () => {
    expect(readDirectives('a [fault:529] b [images:3] [format:JPG] [mb:4] [len:2000] [delay:0]')).toEqual({
      fault: '529',
      images: 3,
      format: 'jpeg',
      mb: 4,
      len: 2000,
      delay: 0,
    });
    expect(readDirectives('plain [len:many]')).toEqual({
      fault: undefined,
      images: undefined,
      format: undefined,
      mb: undefined,
      len: undefined,
      delay: undefined,
    });
  });
});
