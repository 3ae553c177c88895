/**
 * Watches a bot child from the outside, so what it measured survives the bot
 * dying or hanging: peak RSS from the kernel's high-water mark (Linux
 * `/proc/PID/status`), the longest event-loop stall from the child's
 * heartbeats (its own histogram, or the silence since its last beat when it
 * is stuck at the end), and whether it exited.
 */
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildProcess } from 'node:child_process';
import type { Heartbeat } from './chat-imagine-bot.js';

export interface BotWatchResult {
  peakRssMiB: number;
  maxStallMs: number;
  died: boolean;
}

export interface BotWatch {
  /** Reads the last numbers; call before the child is stopped. */
  finish(): Promise<BotWatchResult>;
}

const POLL_MS = 100;
/** A child that does not answer a beat this long is stuck: its silence counts as a stall. */
const STUCK_MS = 2_000;
const KIB_PER_MIB = 1024;

async function highWaterMiB(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${String(pid)}/status`, 'utf8').catch(() => undefined);
  const kib = status === undefined ? undefined : /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  return kib === undefined ? undefined : Number(kib) / KIB_PER_MIB;
}

export const isHeartbeat = (message: unknown): message is Heartbeat =>
  typeof message === 'object' && message !== null && (message as { kind?: unknown }).kind === 'heartbeat';

export function watchBot(child: ChildProcess, heartbeatMs: number): BotWatch {
  const pid = child.pid;
  if (pid === undefined) throw new Error('watchBot: the child has no pid');
  let peakRssMiB = 0;
  let reportedStallMs = 0;
  let lastBeat = performance.now();
  let died = false;
  const poll = async (): Promise<void> => {
    peakRssMiB = Math.max(peakRssMiB, (await highWaterMiB(pid)) ?? 0);
  };
  const poller = setInterval(() => void poll(), POLL_MS);
  const onMessage = (message: unknown): void => {
    if (!isHeartbeat(message)) return;
    lastBeat = performance.now();
    reportedStallMs = Math.max(reportedStallMs, message.maxLoopDelayMs);
  };
  child.on('message', onMessage);
  child.once('exit', () => {
    died = true;
  });
  /**
   * Asks the child for a beat now: one that answers within `STUCK_MS` has no
   * stall under way but what its histogram holds. Without it, beats this
   * process was too busy to read yet (the fake serving megabytes) would count
   * as the child's silence.
   */
  const freshBeat = async (): Promise<boolean> => {
    if (died || !child.connected) return false;
    const asked = performance.now();
    child.send('beat');
    while (performance.now() - asked < STUCK_MS) {
      if (lastBeat >= asked) return true;
      await sleep(heartbeatMs);
    }
    return lastBeat >= asked;
  };
  return {
    async finish() {
      clearInterval(poller);
      await poll();
      const answered = await freshBeat();
      child.off('message', onMessage);
      // A stall still under way at the end never reaches the histogram; the silence since the last beat shows it.
      const openStallMs = died || answered ? 0 : performance.now() - lastBeat - heartbeatMs;
      return { peakRssMiB, maxStallMs: Math.max(reportedStallMs, openStallMs), died };
    },
  };
}
