import { describe, expect, it } from 'vitest';
import { runToCompletion, startServerProcess } from './server-process.js';

const node = process.execPath;

describe('startServerProcess', () => {
  it('resolves once the ready line is printed, and stop waits for the exit', async () => {
    const server = await startServerProcess({
      name: 'echo server',
      command: node,
      args: ['-e', "console.error('booting'); console.error('ready to serve'); setInterval(() => {}, 1000)"],
      readyLine: /ready to serve/,
    });
    expect(server.output()).toContain('booting');
    await server.stop();
    expect(() => process.kill(server.pid, 0)).toThrow();
  });

  it('rejects with what the process printed when it exits before it is ready', async () => {
    await expect(
      startServerProcess({
        name: 'broken server',
        command: node,
        args: ['-e', "console.error('port in use'); process.exit(3)"],
        readyLine: /ready/,
      }),
    ).rejects.toThrow(/broken server did not start: it exited with 3\nport in use/);
  });

  it('gives up after the start timeout and kills the process', async () => {
    await expect(
      startServerProcess({
        name: 'silent server',
        command: node,
        args: ['-e', 'setInterval(() => {}, 1000)'],
        readyLine: /ready/,
        startTimeoutMs: 300,
      }),
    ).rejects.toThrow(/silent server did not start: no "ready" within 300 ms/);
  });
});

describe('runToCompletion', () => {
  it('returns the output of a command that succeeds and rejects with it when it fails', async () => {
    await expect(runToCompletion('tool', node, ['-e', "console.log('fine')"])).resolves.toBe('fine\n');
    await expect(runToCompletion('tool', node, ['-e', "console.error('bad'); process.exit(2)"])).rejects.toThrow(
      /tool: .* exited with 2:\nbad/,
    );
  });
});
