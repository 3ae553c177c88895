import { describe, expect, it } from 'vitest';
import { parseAspectRatio } from './aspect-ratio.js';
import { UsageError } from '../errors.js';
import { ASPECT_RATIOS } from './types.js';

describe('parseAspectRatio', () => {
  it('accepts every supported ratio', () => {
    for (const ratio of ASPECT_RATIOS) expect(parseAspectRatio(ratio)).toBe(ratio);
    expect(parseAspectRatio(' 16 : 9 ')).toBe('16:9');
  });

  it('refuses others with a usage error listing the allowed values', () => {
    expect(() => parseAspectRatio('7:5')).toThrow(UsageError);
    expect(() => parseAspectRatio('7:5')).toThrow(/1:1, 2:3, 3:2, 3:4, 4:3, 4:5, 5:4, 9:16, 16:9, 21:9/);
    expect(() => parseAspectRatio('')).toThrow(UsageError);
  });
});
