/**
 * Child side of the peer comparison: runs one Slack bot alone in its process
 * and measures what it costs there (CPU time and resident memory), so neither
 * the fake platform nor the emulator is counted. Sends `{ port }` once the
 * bot listens; on `'stop'` sends its PeerBotStats and exits.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** What the parent hands a peer bot child (as JSON in argv[2]). */
export interface PeerBotInput {
  apiUrl: string;
  botToken: string;
  signingSecret: string;
  /** The recording proxy in front of the emulator. */
  serviceUrl: string;
  apiKey: string;
  chatModel: string;
  /** Mentions genbot admits at once before answering "busy" (the Chat SDK has no such line). */
  queueLimit: number;
  /** Chat jobs genbot runs at once and its connections to the service, when not its default of 16 each (the Chat SDK has no such cap). */
  streamConcurrency?: number;
  /** genbot's SLACK_STREAMING. */
  streaming: 'edit' | 'native';
  /** The Chat SDK's Slack adapter in agent view mode (the users write in DMs). */
  agentView: boolean;
}

export interface PeerBotStats {
  /** User plus system CPU from the moment the bot was ready until 'stop'. */
  cpuMs: number;
  /** Highest resident set size seen in that time. */
  peakRssMiB: number;
  /** That peak above the resident set size once the bot was ready (after a full collection). */
  peakRssGrowthMiB: number;
}

export interface RunningPeerBot {
  port: number;
  stop(): Promise<void>;
}

const RSS_SAMPLE_MS = 5;
const MIB = 1024 * 1024;

export function peerBotInput(): PeerBotInput {
  return JSON.parse(process.argv[2] ?? '{}') as PeerBotInput;
}

export async function servePeerBot(bot: RunningPeerBot): Promise<void> {
  globalThis.gc?.();
  // Let finalisers and freed pages go before the baseline is read.
  await sleep(50);
  const baseRss = process.memoryUsage.rss();
  let peakRss = baseRss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, RSS_SAMPLE_MS);
  const cpuStart = process.cpuUsage();
  process.once('message', () => {
    const cpu = process.cpuUsage(cpuStart);
    clearInterval(sampler);
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    const stats: PeerBotStats = {
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakRssMiB: peakRss / MIB,
      peakRssGrowthMiB: (peakRss - baseRss) / MIB,
    };
    process.send?.(stats, () => void bot.stop().finally(() => process.exit(0)));
  });
  process.send?.({ port: bot.port });
}
