import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonBody } from './json-body.js';

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
          expect(parseJsonBody(bytesOf(text), liftMinBytes)).toStrictEqual(JSON.parse(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads escapes next to the quotes exactly', () => {
    const values = ['a\\"b', 'ends with a backslash \\', '\\\\"', '"quoted"', 'é and 😀 past ASCII', 'line\nbreak'];
    for (const value of values) {
      const text = JSON.stringify({ data: value, after: 'x' });
      expect(parseJsonBody(bytesOf(text), 1)).toStrictEqual({ data: value, after: 'x' });
    }
  });

  it('leaves a string that only looks like a lifted one alone', () => {
    const text = JSON.stringify({ a: '\u0000lifted:00000000-0000-0000-0000-000000000000:0', b: 'x'.repeat(100) });
    expect(parseJsonBody(bytesOf(text), 10)).toStrictEqual(JSON.parse(text));
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

  it('throws SyntaxError on a body that is not JSON', () => {
    const long = 'A'.repeat(100);
    for (const text of [
      '',
      '{"data": "unterminated',
      `{"data": "${long}"`,
      `{"data": "${long}" "x": 1}`,
      `["${long}",]`,
    ]) {
      expect(() => parseJsonBody(bytesOf(text), 10), text).toThrow(SyntaxError);
    }
  });
});
