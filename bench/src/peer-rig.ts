/**
 * The Slack fake with one bot answering mentions on it, the bot in its own
 * process: genbot's Slack bot or the Chat SDK peer. The fake and the recording
 * proxy stay here, so "when the service sent a delta" and "when the user saw
 * text" are read on one clock, and the child's CPU and memory are the bot's
 * alone. Shaped as a ChatRig so the chat benchmarks' reply reading applies.
 */
import { once } from 'node:events';
import { startSlackFake } from '@genbot/fakes';
import { forkBenchChild } from './child-process.js';
import { startChatProxy } from './chat-proxy.js';
import { ASIDE_CHANNEL, CHAT_MODEL, slackVersions, type ChatRig } from './chat-rig.js';
import type { PeerBotInput, PeerBotStats } from './peer-bot-process.js';

/** genbot as it ships (edits in place), genbot with SLACK_STREAMING=native, or the Chat SDK peer. */
export type PeerBot = 'genbot' | 'genbot-native' | 'chat-sdk';

/** The genbot rows of the comparison, each against the same peer run. */
export const GENBOT_VARIANTS: ReadonlyArray<{ bot: PeerBot; label: string }> = [
  { bot: 'genbot', label: 'genbot' },
  { bot: 'genbot-native', label: 'genbot (native streaming)' },
];

const GENBOT_CHILD = new URL('./peer-genbot-child.ts', import.meta.url);
const ENTRIES: Record<PeerBot, URL> = {
  genbot: GENBOT_CHILD,
  'genbot-native': GENBOT_CHILD,
  'chat-sdk': new URL('./peer-chat-sdk-child.ts', import.meta.url),
};

/**
 * Slack's edit limit, about one a second per channel, held against whatever
 * changes a visible message: `chat.update` (genbot's default, the SDK's
 * post+edit fallback) and `chat.appendStream` (native streaming, the SDK's
 * default on Slack). Slack documents no figure of its own for appends, so
 * both streaming styles meet the same wall.
 */
const EDIT_METHODS = ['chat.update', 'chat.appendStream'];

/**
 * Extra node flags for the bot processes only, to look inside them, e.g.
 * `BENCH_PEER_BOT_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof'`.
 */
const BOT_FLAGS = (process.env.BENCH_PEER_BOT_FLAGS ?? '').split(/\s+/).filter((flag) => flag !== '');

export interface PeerRig extends ChatRig {
  /** Ends the bot process; what it cost from ready until now. */
  stopBot(): Promise<PeerBotStats>;
  /** When the fake posted message `index` and sent its event (epoch ms, the fake's clock). */
  sentAt(index: number): number | undefined;
}

/**
 * Where the users write: mentions in channels, or direct messages, each user
 * in their own DM with the bot (`message.im`), answered in the message's
 * thread; the Chat SDK then runs in its agent view mode (`agentView`), as a
 * new Slack app's manifest declares.
 */
export type PeerSetting = 'channels' | 'dms';

export interface PeerRigOptions {
  bot: PeerBot;
  channels: number;
  emulatorUrl: string;
  apiKey: string;
  /** Mentions genbot admits at once. */
  queueLimit: number;
  /** Default `channels`. */
  setting?: PeerSetting;
  /** genbot's chat jobs at once, when not its default. */
  streamConcurrency?: number;
}

export async function startPeerRig(options: PeerRigOptions): Promise<PeerRig> {
  const channels = Array.from({ length: options.channels }, (_, i) => ({ id: `C${100 + i}`, name: `bench-${i}` }));
  const dms = options.setting === 'dms';
  const slack = await startSlackFake({
    channels: [...channels, ASIDE_CHANNEL],
    events: dms ? ['app_mention', 'message.im'] : ['app_mention'],
    echoBotMessages: false,
  });
  const proxy = await startChatProxy(options.emulatorUrl);
  const input: PeerBotInput = {
    apiUrl: slack.apiUrl,
    botToken: slack.identity.botToken,
    signingSecret: slack.identity.signingSecret,
    serviceUrl: proxy.url,
    apiKey: options.apiKey,
    chatModel: CHAT_MODEL,
    queueLimit: options.queueLimit,
    streaming: options.bot === 'genbot-native' ? 'native' : 'edit',
    agentView: dms,
    ...(options.streamConcurrency !== undefined && { streamConcurrency: options.streamConcurrency }),
  };
  const child = forkBenchChild(ENTRIES[options.bot], [JSON.stringify(input)], ['--expose-gc', ...BOT_FLAGS]);
  const exited = once(child.process, 'exit');
  let stats: Promise<PeerBotStats> | undefined;
  const stopBot = (): Promise<PeerBotStats> => {
    stats ??= (async () => {
      const answer = once(child.process, 'message');
      child.process.send('stop');
      const [measured] = (await answer) as [PeerBotStats];
      await exited;
      return measured;
    })();
    return stats;
  };
  const closeRest = async () => {
    await proxy.close();
    await slack.close();
  };
  try {
    const { port } = (await child.message) as { port: number };
    slack.deliverTo(`http://127.0.0.1:${String(port)}/slack/events`);
  } catch (error) {
    child.process.kill();
    await closeRest();
    throw error;
  }
  const { botUserId } = slack.identity;
  const posted = new Map<number, { channel: string; ts: string }>();
  const mentionIn = async (channel: string | undefined, index: number, prompt: string): Promise<void> => {
    const user = `U${1000 + index}`;
    slack.workspace.addUser({ id: user, name: `user${index}` });
    // In a DM every message is for the bot: no mention.
    const where = channel ?? slack.openDm(user);
    const text = channel === undefined ? prompt : `<@${botUserId}> ${prompt}`;
    const message = await slack.userSays({ user, channel: where, text });
    posted.set(index, { channel: where, ts: message.ts });
  };
  return {
    proxy,
    editWindowMs: 1_000,
    mention: (index, prompt) =>
      mentionIn(dms ? undefined : (channels[index % channels.length]?.id ?? 'C100'), index, prompt),
    mentionAside: (index, prompt) => mentionIn(dms ? undefined : ASIDE_CHANNEL.id, index, prompt),
    sentAt(index) {
      const at = posted.get(index);
      return at === undefined ? undefined : Number(at.ts) * 1000;
    },
    replies(index) {
      const at = posted.get(index);
      if (at === undefined) return [];
      return slack.workspace.botMessages(botUserId, { channel: at.channel, threadTs: at.ts }).map(slackVersions);
    },
    enforceEditLimits() {
      for (const method of EDIT_METHODS) slack.rateLimit({ method, perSecond: 1, scope: 'channel' });
    },
    rateLimitHits: () => slack.rateLimitHits.length,
    stopBot,
    async close() {
      if (stats === undefined && child.process.exitCode === null) child.process.kill();
      await stats?.catch(() => undefined);
      await exited.catch(() => undefined);
      await closeRest();
    },
  };
}
