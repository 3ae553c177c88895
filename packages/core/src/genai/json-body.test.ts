import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBody } from './json-body.js';
import { RawText } from './raw-text.js';

const MIB = 1024 * 1024;
const bytesOf = (text: string) => Buffer.from(text, 'utf8');

describe('parseJsonBody', () => {
  it('equals JSON.parse on any JSON, whatever gets lifted', () => {
    // A lift threshold of 0-8 bytes lifts most literals, escaped and non-ASCII ones included.
    fc.assert(
      fc.property(
        fc.jsonValue({ noUnicodeString: false }),
        fc.integer({ min: 0, max: 8 }),
        fc.boolean(),
        (value, liftMinBytes, pretty) => {
          const text = JSON.stringify(value, null, pretty ? 2 : undefined);
          expect(parseJsonBody(bytesOf(text), { liftMinBytes })).toStrictEqual(JSON.parse(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads escapes next to the quotes exactly', () => {
    const values = ['a\\"b', 'ends with a backslash \\', '\\\\"', '"quoted"', 'é and 😀 past ASCII', 'line\nbreak'];
    for (const value of values) {
      const text = JSON.stringify({ data: value, after: 'x' });
      expect(parseJsonBody(bytesOf(text), { liftMinBytes: 1 })).toStrictEqual({ data: value, after: 'x' });
    }
  });

  it('leaves a string that only looks like a lifted one alone', () => {
    const text = JSON.stringify({ a: '\u0000lifted:00000000-0000-0000-0000-000000000000:0', b: 'x'.repeat(100) });
    expect(parseJsonBody(bytesOf(text), { liftMinBytes: 10 })).toStrictEqual(JSON.parse(text));
  });

  it('keeps a long Base64 value off the V8 heap', () => {
    const data = Buffer.alloc(15 * MIB, 7).toString('base64');
    const body = bytesOf(
      JSON.stringify({ candidates: [{ content: { parts: [{ inlineData: { mimeType: 'image/png', data } }] } }] }),
    );
    const before = process.memoryUsage();
    const parsed = parseJsonBody(body) as { candidates: [{ content: { parts: [{ inlineData: { data: string } }] } }] };
    const after = process.memoryUsage();
    expect(parsed.candidates[0].content.parts[0].inlineData.data).toBe(data);
    // JSON.parse of the text would add the text and the value to the heap: 40 MiB.
    expect(after.heapUsed - before.heapUsed).toBeLessThan(4 * MIB);
    expect(after.external - before.external).toBeGreaterThanOrEqual(data.length);
  });

  it('keeps the long values of raw keys as views on the body, and only those', () => {
    const data = 'QUJD'.repeat(40);
    const text = JSON.stringify({ parts: [{ text: data, inlineData: { mimeType: 'image/png', data } }], data: ['x'] });
    const body = bytesOf(text);
    const parsed = parseJsonBody(body, { liftMinBytes: 100, rawKeys: new Set(['data']) }) as {
      parts: [{ text: unknown; inlineData: { mimeType: unknown; data: unknown } }];
      data: unknown;
    };
    const raw = parsed.parts[0].inlineData.data;
    expect(raw).toBeInstanceOf(RawText);
    expect(raw instanceof RawText && raw.bytes.buffer === body.buffer).toBe(true);
    expect(String(raw)).toBe(data);
    expect(parsed.parts[0].text).toBe(data);
    expect(parsed.parts[0].inlineData.mimeType).toBe('image/png');
    expect(parsed.data).toStrictEqual(['x']);
  });

  it('equals JSON.parse with raw keys once their values are read as strings', () => {
    fc.assert(
      fc.property(fc.jsonValue({ noUnicodeString: false }), fc.integer({ min: 0, max: 8 }), (value, liftMinBytes) => {
        const text = JSON.stringify({ data: value, inner: { data: value } });
        const parsed = parseJsonBody(bytesOf(text), { liftMinBytes, rawKeys: new Set(['data']) });
        expect(
          JSON.parse(JSON.stringify(parsed, (_key, item: unknown) => (item instanceof RawText ? String(item) : item))),
        ).toStrictEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('throws SyntaxError on a body that is not JSON', () => {
    const long = 'A'.repeat(100);
    for (const text of [
      '',
      '{"data": "unterminated',
      `{"data": "${long}"`,
      `{"data": "${long}" "x": 1}`,
      `["${long}",]`,
    ]) {
      expect(() => parseJsonBody(bytesOf(text), { liftMinBytes: 10 }), text).toThrow(SyntaxError);
    }
  });
});
