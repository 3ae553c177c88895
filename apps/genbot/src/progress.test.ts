import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startProgress, type ProgressStream } from './progress.js';

function fakeStream(isTTY: boolean): ProgressStream & { chunks: string[] } {
  const chunks: string[] = [];
  return { isTTY, chunks, write: (chunk: string) => chunks.push(chunk) > 0 };
}

describe('startProgress', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ticks elapsed seconds on a terminal and clears the line when stopped', () => {
    const stream = fakeStream(true);
    const progress = startProgress(stream, 'Generating', () => Date.now());
    vi.advanceTimersByTime(2000);
    progress.stop();
    progress.stop();
    vi.advanceTimersByTime(5000);
    expect(stream.chunks).toEqual([
      '\r\x1b[2KGenerating... 0s',
      '\r\x1b[2KGenerating... 1s',
      '\r\x1b[2KGenerating... 2s',
      '\r\x1b[2K',
    ]);
  });

  it('writes nothing when the stream is not a terminal', () => {
    const stream = fakeStream(false);
    const progress = startProgress(stream, 'Generating');
    vi.advanceTimersByTime(3000);
    progress.stop();
    expect(stream.chunks).toEqual([]);
  });
});
