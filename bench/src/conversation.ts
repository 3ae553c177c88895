/**
 * Issue 29: the conversation that sees and acts, through the real Slack bot
 * alone in its process (chat-imagine-bot.ts: its peak RSS and event-loop
 * stalls are its own), the Slack fake and the recording proxy in this
 * process, all stamped on one clock (Date.now).
 *
 * Seeing: mentions one after another, each in a thread of its own holding 4
 * photos of 12 megapixels, each measured from the event sent to the messages
 * request received whole (the downloads, sharp's scaling, the Base64): the
 * next mention goes once that request's answer has passed. The bot's peak RSS
 * growth and longest stall are over the whole batch, after a warm-up mention
 * in a thread of small photos. Baseline: the same in threads without images, in a fresh
 * bot of its own.
 *
 * Acting: "draw…" mentions, the bot's own time from the `tool_use` stream
 * passed on to its last byte to the generate-content request, and from the
 * fake receiving the image's bytes to the second messages request (the one
 * carrying `tool_result`). Baseline, in the same bot, interleaved: `/imagine`
 * of the same prompt, from the command sent to the generate-content request,
 * and from its upload received to its progress message deleted (its last step).
 */
import { once } from 'node:events';
import { startSlackFake, type SlackFake } from '@genbot/fakes';
import type { ChatProxy, ProxyExchange } from './chat-proxy.js';
import { startChatProxy } from './chat-proxy.js';
import type { ImagineBotInput, ImagineBotStats } from './chat-imagine-bot.js';
import { CHAT_MODEL, IMAGE_MODEL } from './chat-rig.js';
import { forkBenchChild } from './child-process.js';
import { photoJpeg } from './photos.js';
import { sendSpacedMentions } from './spaced-mentions.js';
import { percentile } from './stats.js';
import { boundedRow, type BenchContext, type Benchmark, type Row } from './suite.js';

const PHOTOS = 4;
/** Mentions measured per seeing batch; its p99 is the slowest of them. */
const SEEING_MENTIONS = 12;
/** Draws and /imagine commands measured; p99 is the slowest of them. */
const DRAWS = 20;
/**
 * A draw every 500 ms, its /imagine 250 ms after it, each kind over 10 channels of its own: a channel
 * hears one every 5 s, so no step waits on another's share of Slack's one post a second per channel.
 */
const DRAW_SPACING_MS = 500;
const CHANNELS = 10;
const WARM_UP_CHANNEL = 'CWARM';
/** Tags (`#m<n>`, see chat-proxy.ts) of the /imagine commands start here, the warm-ups' further on. */
const IMAGINE_TAGS_FROM = 100;
const WARM_UP_TAG = 999;
const SETTLE_MS = 30_000;
const TARGET_RSS_GROWTH_MIB = 150;
const TARGET_STALL_MS = 100;
const TARGET_TOOL_TO_IMAGE_P50_MS = 20;
/**
 * The warm-up's photos: small, so the first mention's compiles, sharp's loading and its threads are
 * paid before the measures start, but not the memory that 12-megapixel photos take.
 */
const WARM_UP_PHOTO = { width: 800, height: 600 };
/**
 * Extra node flags for the bot processes only, to look inside them, e.g.
 * `BENCH_CONVERSATION_BOT_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof'`.
 */
const BOT_FLAGS = (process.env.BENCH_CONVERSATION_BOT_FLAGS ?? '').split(/\s+/).filter((flag) => flag !== '');
const DRAW_PROMPT = 'draw a lighthouse at dusk';
const IMAGINE_PROMPT = 'a lighthouse at dusk';

interface BotSession {
  slack: SlackFake;
  proxy: ChatProxy;
  /** Starts the bot's memory and stall measures afresh (after a warm-up). */
  reset(): Promise<void>;
  /** Stops the bot, with what it measured since the last reset. */
  stop(): Promise<ImagineBotStats>;
  close(): Promise<void>;
}

const channelId = (index: number, offset = 0): string => `C${String(100 + offset + (index % CHANNELS))}`;

async function startBotSession(context: BenchContext): Promise<BotSession> {
  const channels = [
    { id: WARM_UP_CHANNEL, name: 'warm-up' },
    ...Array.from({ length: 2 * CHANNELS }, (_, i) => ({
      id: channelId(i, i < CHANNELS ? 0 : CHANNELS),
      name: `c${i}`,
    })),
  ];
  const slack = await startSlackFake({ channels, events: ['app_mention'], echoBotMessages: false });
  const proxy = await startChatProxy(context.emulatorUrl);
  const input: ImagineBotInput = {
    apiUrl: slack.apiUrl,
    botToken: slack.identity.botToken,
    signingSecret: slack.identity.signingSecret,
    serviceUrl: proxy.url,
    apiKey: context.apiKey,
    chatModel: CHAT_MODEL,
    imageModel: IMAGE_MODEL,
    scheduler: {},
  };
  const child = forkBenchChild(
    new URL('./chat-imagine-bot.ts', import.meta.url),
    [JSON.stringify(input)],
    ['--expose-gc', ...BOT_FLAGS],
  );
  const exited = once(child.process, 'exit').catch(() => undefined);
  let stopped = false;
  const close = async (): Promise<void> => {
    // Without `stop` (a batch that failed, or one that needs no measures) the bot is ended here.
    if (!stopped) child.process.kill();
    await exited;
    await proxy.close();
    await slack.close();
  };
  try {
    const { port } = (await child.message) as { port: number };
    slack.deliverTo(`http://127.0.0.1:${String(port)}/slack/events`);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    slack,
    proxy,
    async reset() {
      const answered = once(child.process, 'message');
      child.process.send('reset');
      await answered;
    },
    async stop() {
      const answered = once(child.process, 'message');
      stopped = true;
      child.process.send('stop');
      const [stats] = (await answered) as [ImagineBotStats];
      return stats;
    },
    close,
  };
}

/** The proxy's record that `find` picks, once there, or a failure naming `what`. */
function exchange(
  session: BotSession,
  what: string,
  find: (exchange: ProxyExchange) => boolean,
): Promise<ProxyExchange> {
  return session.slack
    .waitFor(() => session.proxy.exchanges.find(find), { timeoutMs: SETTLE_MS })
    .catch(() => {
      throw new Error(`conversation bench: no ${what} within ${String(SETTLE_MS)} ms`);
    });
}

const tagged =
  (number: number, kind: ProxyExchange['kind'], more: (exchange: ProxyExchange) => boolean = () => true) =>
  (exchange: ProxyExchange): boolean =>
    exchange.kind === kind && exchange.tag === `m${String(number)}` && more(exchange);

function sentAt(posted: { deliveries: ReadonlyArray<{ attempts: ReadonlyArray<{ atMs: number }> }> }): number {
  const at = posted.deliveries[0]?.attempts[0]?.atMs;
  if (at === undefined) throw new Error('conversation bench: a mention was never delivered');
  return at;
}

interface SeeingResult extends ImagineBotStats {
  /** Event sent to messages request received, ms, one per mention. */
  latenciesMs: number[];
}

interface PhotoSet {
  measured: readonly Buffer[];
  warmUp: readonly Buffer[];
}

const NO_PHOTOS: PhotoSet = { measured: [], warmUp: [] };

const asFiles = (photos: readonly Buffer[]) =>
  photos.map((bytes, i) => ({ name: `IMG_${String(4100 + i)}.jpg`, bytes }));

/**
 * One batch of mentions, one at a time, each in a thread that a user started
 * with the photos attached (none for the baseline), after a warm-up mention
 * in a thread of small photos.
 */
async function seeingBatch(context: BenchContext, photos: PhotoSet): Promise<SeeingResult> {
  const session = await startBotSession(context);
  const { slack } = session;
  const bot = slack.identity.botUserId;
  const ask = async (tag: number, channel: string, files: ReturnType<typeof asFiles>): Promise<number> => {
    const user = `U${String(1000 + tag)}`;
    slack.workspace.addUser({ id: user, name: `user${String(tag)}` });
    const root = await slack.userSays({ user, channel, text: 'Photos from the weekend', files });
    const mention = await slack.userSays({
      user,
      channel,
      threadTs: root.ts,
      text: `<@${bot}> what do you see in these? #m${String(tag)}`,
    });
    const request = await exchange(
      session,
      `messages request for mention ${String(tag)}`,
      tagged(tag, 'messages', (e) => e.endedAt !== undefined),
    );
    return request.receivedAt - sentAt(mention);
  };
  try {
    await ask(WARM_UP_TAG, WARM_UP_CHANNEL, asFiles(photos.warmUp));
    await session.reset();
    const files = asFiles(photos.measured);
    const latenciesMs: number[] = [];
    for (let index = 0; index < SEEING_MENTIONS; index++) latenciesMs.push(await ask(index, channelId(index), files));
    return { latenciesMs, ...(await session.stop()) };
  } finally {
    await session.close();
  }
}

interface ActingResult {
  /** The tool_use stream's end to the generate-content request, ms, one per draw. */
  toolToImageMs: number[];
  /** The image's bytes received by Slack to the messages request carrying tool_result, ms. */
  uploadToResultMs: number[];
  /** /imagine: the command sent to the generate-content request, ms. */
  commandToImageMs: number[];
  /** /imagine: its image's bytes received by Slack to its progress message deleted, ms. */
  uploadToDoneMs: number[];
}

/** When the fake received each uploaded file's bytes, by file name (the bot names a file after its prompt). */
function uploadStamps(slack: SlackFake): Map<string, number> {
  const stamped = new Map<string, number>();
  const before = new Set(slack.workspace.files.keys());
  slack.workspace.onChange(() => {
    for (const [id, file] of slack.workspace.files) {
      if (before.has(id) || file.bytes === undefined) continue;
      before.add(id);
      stamped.set(file.name, Date.now());
    }
  });
  return stamped;
}

/** The upload whose file name carries tag `number` (`…-m12-1-3fa2c9.png`). */
function uploadOf(stamps: ReadonlyMap<string, number>, number: number): number | undefined {
  const mark = `-m${String(number)}-`;
  return [...stamps].find(([name]) => name.includes(mark))?.[1];
}

async function actingBatch(context: BenchContext): Promise<ActingResult> {
  const session = await startBotSession(context);
  const { slack } = session;
  const bot = slack.identity.botUserId;
  const uploads = uploadStamps(slack);

  const draw = async (tag: number, channel: string): Promise<() => Promise<[number, number]>> => {
    const user = `U${String(1000 + tag)}`;
    slack.workspace.addUser({ id: user, name: `user${String(tag)}` });
    await slack.userSays({ user, channel, text: `<@${bot}> ${DRAW_PROMPT} #m${String(tag)}` });
    return async () => {
      const what = `draw ${String(tag)}`;
      const toolUse = await exchange(
        session,
        `${what}: tool_use stream`,
        tagged(tag, 'messages', (e) => e.stopReason === 'tool_use' && e.endedAt !== undefined),
      );
      const image = await exchange(session, `${what}: generate-content request`, tagged(tag, 'image'));
      const result = await exchange(
        session,
        `${what}: tool_result request`,
        tagged(tag, 'messages', (e) => e.toolResults && e.endedAt !== undefined),
      );
      const uploaded = uploadOf(uploads, tag);
      if (uploaded === undefined || toolUse.endedAt === undefined) throw new Error(`${what}: no upload seen`);
      return [image.receivedAt - toolUse.endedAt, result.receivedAt - uploaded];
    };
  };

  const imagine = async (tag: number, channel: string): Promise<() => Promise<[number, number]>> => {
    const user = `U${String(1000 + tag)}`;
    slack.workspace.addUser({ id: user, name: `user${String(tag)}` });
    const run = await slack.userRunsCommand({
      user,
      channel,
      command: '/imagine',
      text: `${IMAGINE_PROMPT} #m${String(tag)}`,
    });
    const commandAt = run.delivery.attempts[0]?.atMs;
    return async () => {
      const what = `/imagine ${String(tag)}`;
      const image = await exchange(session, `${what}: generate-content request`, tagged(tag, 'image'));
      const deleted = await slack
        .waitFor(
          () => {
            const uploaded = uploadOf(uploads, tag);
            if (uploaded === undefined) return undefined;
            const done = slack.calls.find(
              (call) => call.method === 'chat.delete' && call.args.channel === channel && call.atMs >= uploaded,
            );
            return done === undefined ? undefined : { uploaded, doneAt: done.atMs };
          },
          { timeoutMs: SETTLE_MS },
        )
        .catch(() => {
          throw new Error(`${what}: its progress message was never deleted after the upload`);
        });
      if (commandAt === undefined) throw new Error(`${what}: never delivered`);
      return [image.receivedAt - commandAt, deleted.doneAt - deleted.uploaded];
    };
  };

  try {
    await (await draw(WARM_UP_TAG, WARM_UP_CHANNEL))();
    await (await imagine(WARM_UP_TAG + 1, WARM_UP_CHANNEL))();
    const draws: Array<() => Promise<[number, number]>> = [];
    const imagines: Array<() => Promise<[number, number]>> = [];
    await sendSpacedMentions(2 * DRAWS, DRAW_SPACING_MS / 2, async (step) => {
      const index = Math.floor(step / 2);
      if (step % 2 === 0) draws.push(await draw(index, channelId(index)));
      else imagines.push(await imagine(IMAGINE_TAGS_FROM + index, channelId(index, CHANNELS)));
    });
    const drawn = await Promise.all(draws.map((read) => read()));
    const imagined = await Promise.all(imagines.map((read) => read()));
    return {
      toolToImageMs: drawn.map(([toImage]) => toImage),
      uploadToResultMs: drawn.map(([, toResult]) => toResult),
      commandToImageMs: imagined.map(([toImage]) => toImage),
      uploadToDoneMs: imagined.map(([, toDone]) => toDone),
    };
  } finally {
    await session.close();
  }
}

export const conversation: Benchmark = {
  name: `conversation: ${PHOTOS} photos of 12 MP in a thread, and draw… through the tools`,
  async run(context) {
    const seeds = Array.from({ length: PHOTOS }, (_, seed) => seed);
    const photos: PhotoSet = {
      measured: await Promise.all(seeds.map((seed) => photoJpeg(seed))),
      warmUp: await Promise.all(seeds.map((seed) => photoJpeg(seed, WARM_UP_PHOTO))),
    };
    const plain = await seeingBatch(context, NO_PHOTOS);
    const seeing = await seeingBatch(context, photos);
    const acting = await actingBatch(context);
    const seen = `conversation, Slack, ${SEEING_MENTIONS} mentions in threads of ${PHOTOS} x 12 MP photos`;
    const drew = `conversation, Slack, ${DRAWS} "draw…" mentions`;
    const rows: Row[] = [
      boundedRow(
        `${seen}: event to messages request p50 (vs no images)`,
        'ms',
        p50(seeing.latenciesMs),
        p50(plain.latenciesMs),
      ),
      boundedRow(
        `${seen}: event to messages request p99 (vs no images)`,
        'ms',
        p99(seeing.latenciesMs),
        p99(plain.latenciesMs),
      ),
      boundedRow(
        `${seen}: bot's peak RSS growth (vs no images)`,
        'MiB',
        seeing.peakRssGrowthMiB,
        plain.peakRssGrowthMiB,
        TARGET_RSS_GROWTH_MIB,
      ),
      boundedRow(`${seen}: bot's peak RSS (vs no images)`, 'MiB', seeing.peakRssMiB, plain.peakRssMiB),
      boundedRow(
        `${seen}: longest event-loop stall (vs no images)`,
        'ms',
        seeing.maxLoopDelayMs,
        plain.maxLoopDelayMs,
        TARGET_STALL_MS,
      ),
      boundedRow(
        `${drew}: tool_use stream end to generate-content request p50 (vs /imagine: command to request)`,
        'ms',
        p50(acting.toolToImageMs),
        p50(acting.commandToImageMs),
        TARGET_TOOL_TO_IMAGE_P50_MS,
      ),
      boundedRow(
        `${drew}: tool_use stream end to generate-content request p99 (vs /imagine)`,
        'ms',
        p99(acting.toolToImageMs),
        p99(acting.commandToImageMs),
      ),
      boundedRow(
        `${drew}: image uploaded to tool_result request p50 (vs /imagine: upload to its last step)`,
        'ms',
        p50(acting.uploadToResultMs),
        p50(acting.uploadToDoneMs),
      ),
      boundedRow(
        `${drew}: image uploaded to tool_result request p99 (vs /imagine)`,
        'ms',
        p99(acting.uploadToResultMs),
        p99(acting.uploadToDoneMs),
      ),
    ];
    return rows;
  },
};

const p50 = (samples: readonly number[]): number => percentile(samples, 50);
const p99 = (samples: readonly number[]): number => percentile(samples, 99);
