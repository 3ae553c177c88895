import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '@genbot/core/log';
import { StopTriggers } from './shutdown.js';

const logger = createLogger({ level: 'silent', secrets: [] });
const made: StopTriggers[] = [];

function triggers(underPackageManager: boolean): { stop: StopTriggers; stderr: () => string } {
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const stop = new StopTriggers(stderr, logger, underPackageManager);
  made.push(stop);
  return { stop, stderr: () => text };
}

afterEach(() => {
  for (const stop of made.splice(0)) stop.dispose();
  vi.restoreAllMocks();
});

describe('StopTriggers: how many signals make a request', () => {
  it('under a package manager, the forwarded copy of the first signal is not a second request, however late', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    const { stop } = triggers(true);
    process.emit('SIGINT', 'SIGINT');
    await expect(stop.first).resolves.toEqual({ kind: 'signal', signal: 'SIGINT' });
    process.emit('SIGINT', 'SIGINT');
    expect(exit).not.toHaveBeenCalled();
    process.emit('SIGINT', 'SIGINT');
    expect(exit).toHaveBeenCalledWith(130);
  });

  it('started directly, a second signal means stop now', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    const { stderr } = triggers(false);
    process.emit('SIGTERM', 'SIGTERM');
    process.emit('SIGTERM', 'SIGTERM');
    expect(exit).toHaveBeenCalledWith(130);
    expect(stderr()).toBe('genbot: SIGTERM again, stopping without waiting\n');
  });

  it('once everything has stopped, a late copy of the signal ends the process with the status of that stop', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    const { stop, stderr } = triggers(true);
    process.emit('SIGINT', 'SIGINT');
    stop.stopped(0);
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');
    expect(exit).toHaveBeenCalledWith(0);
    expect(exit).not.toHaveBeenCalledWith(130);
    expect(stderr()).toBe('');
  });

  it('a different signal after the first is never an echo', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    triggers(true);
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGTERM', 'SIGTERM');
    expect(exit).toHaveBeenCalledWith(130);
  });
});
