import { describe, expect, it } from 'vitest';
import { inCi } from './ci.js';

describe('inCi', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['false', false],
    [' FALSE ', false],
    ['0', false],
    ['true', true],
    ['1', true],
    ['woodpecker', true],
  ])('CI=%s -> %s', (value, expected) => {
    expect(inCi({ CI: value })).toBe(expected);
  });
});
