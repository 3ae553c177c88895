/**
 * Issue 13: the real Slack bot, alone in its process with its default
 * scheduler, against hostile input, each case beside the same run's baseline
 * of normal traffic: peak RSS, the longest event-loop stall and whether the
 * process survived. The Slack fake enforces Slack's per-channel limits (about
 * one post and one edit a second) throughout. Every case ends when its
 * threads settle or at its deadline, whichever is first; the numbers are
 * those at that moment.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { copy } from '@genbot/core/copy';
import { startSlackFake, type SlackFake, type SlackUserFile } from '@genbot/fakes';
import { isHeartbeat, watchBot, type BotWatchResult } from './bot-watch.js';
import type { ImagineBotInput } from './chat-imagine-bot.js';
import { forkBenchChild } from './child-process.js';
import { CHAT_MODEL, IMAGE_MODEL } from './chat-rig.js';
import { storedPng } from './stored-png.js';
import { boundedRow, row, type BenchContext, type Benchmark, type Row } from './suite.js';

/** `BENCH_HOSTILE_ONLY='(c)'` runs only the cases whose label contains it (and the baseline). */
const ONLY = process.env.BENCH_HOSTILE_ONLY ?? '';
const HEARTBEAT_MS = 50;
/** A thread is settled once nothing of it waits and the bot has not posted or edited for this long. */
const QUIET_MS = 2_000;
const MIB = 1024 * 1024;
const TARGET_RSS_RATIO = 2;
const TARGET_STALL_MS = 100;
const TARGET_CALLS_PER_ANSWER = 2;
/** How long a bot asked to stop after a case may take before it is killed. */
const STOP_GRACE_MS = 3_000;

interface Mention {
  user: string;
  channel: string;
  text: string;
  files?: SlackUserFile[];
}

interface HostileCase {
  label: string;
  deadlineMs: number;
  /**
   * Run to the deadline whatever the threads show: a bot busy re-cutting a
   * reply makes no calls for seconds, which looks the same as a settled one.
   */
  toDeadline?: boolean;
  mentions: () => Mention[];
}

interface CaseResult extends BotWatchResult {
  /** Posts and edits in the case's channels, refused ones included. */
  platformCalls: number;
  /** Calls the fake refused with 429. */
  refused: number;
  /** Threads whose bot messages all say something final (an answer, a failure, a refusal). */
  answered: number;
  /** Threads showing a place in line (and nothing final yet). */
  inLine: number;
  /** Threads with nothing from the bot yet but a private note to their user (a place in line, a refusal). */
  toldPrivately: number;
  /** Threads where the bot has said nothing at all, publicly or privately. */
  silent: number;
  mentions: number;
  seconds: number;
  /** How the first thread's last bot message ends, for the log. */
  firstThreadEnd: string;
}

const isWaiting = (text: string): boolean =>
  text === copy.thinking || /in line\.$/.test(text) || text.startsWith('🖌️ Editing the image');

function ask(users: number, channels: number, prompt: string, files?: SlackUserFile[]): Mention[] {
  return Array.from({ length: users }, (_, i) => ({
    user: `U${1000 + i}`,
    channel: `C${100 + (i % channels)}`,
    text: `${prompt} (${String(i)})`,
    ...(files === undefined ? {} : { files }),
  }));
}

const BASELINE: HostileCase = {
  label: 'normal traffic',
  deadlineMs: 20_000,
  mentions: () => ask(20, 5, 'a normal question [len:1500][delay:20]'),
};

const CASES: readonly HostileCase[] = [
  {
    label: '(a) one endless SSE line',
    deadlineMs: 20_000,
    // The reply's first words are posted before the endless line begins: the thread looks answered at once.
    toDeadline: true,
    mentions: () => ask(1, 1, 'hi [fault:endless-line]'),
  },
  {
    label: '(b) a 10 MB reply',
    deadlineMs: 20_000,
    toDeadline: true,
    mentions: () => ask(1, 1, 'tell me all [len:10000000][fault:ignore-max-tokens]'),
  },
  {
    label: '(c) 500 users flood one channel',
    // Everyone hears within about ten seconds (most privately); the channel's answers take minutes.
    deadlineMs: 20_000,
    mentions: () => ask(500, 1, 'hello [len:300][delay:50]'),
  },
  {
    label: '(d) 80 users edit 13 MiB images',
    deadlineMs: 30_000,
    mentions: () => ask(80, 1, 'make it grey', [{ name: 'big.png', bytes: storedPng(13 * MIB) }]),
  },
];

function slackLimits(slack: SlackFake): void {
  slack.rateLimit({ method: 'chat.postMessage', perSecond: 1, scope: 'channel' });
  slack.rateLimit({ method: 'chat.update', perSecond: 1, scope: 'channel' });
}

const postsAndEdits = (slack: SlackFake, channels: ReadonlySet<string>) =>
  slack.calls.filter(
    (call) =>
      (call.method === 'chat.postMessage' || call.method === 'chat.update') &&
      typeof call.args.channel === 'string' &&
      channels.has(call.args.channel),
  );

interface Thread {
  channel: string;
  ts: string;
  user: string;
}

function threadStates(slack: SlackFake, threads: readonly Thread[]) {
  const toldPrivately = new Set(
    slack.workspace.ephemerals.map((note) => `${note.channel} ${note.threadTs ?? ''} ${note.user}`),
  );
  const states = threads.map(({ channel, ts, user }) => {
    const texts = slack.workspace
      .botMessages(slack.identity.botUserId, { channel, threadTs: ts })
      .map((message) => message.text);
    if (texts.length === 0) return toldPrivately.has(`${channel} ${ts} ${user}`) ? 'told privately' : 'silent';
    if (texts.some((text) => /in line\.$/.test(text))) return 'in line';
    return texts.some(isWaiting) ? 'waiting' : 'answered';
  });
  const count = (state: string) => states.filter((s) => s === state).length;
  return {
    answered: count('answered'),
    inLine: count('in line'),
    toldPrivately: count('told privately'),
    silent: count('silent'),
  };
}

/**
 * One ordinary answer in a channel of its own, then a fresh stall measure: the
 * first mention's module loading and compiles are no case's doing.
 */
async function warmUp(slack: SlackFake, bot: ChildProcess): Promise<void> {
  const channel = 'CWARM';
  slack.workspace.addChannel({ id: channel, name: 'warm-up' });
  const { ts } = await slack.userSays({
    user: 'U1',
    channel,
    text: `<@${slack.identity.botUserId}> warm up [len:200]`,
  });
  await slack.waitFor(
    () => {
      const texts = slack.workspace
        .botMessages(slack.identity.botUserId, { channel, threadTs: ts })
        .map((message) => message.text);
      return texts.length > 0 && !texts.some(isWaiting) ? true : undefined;
    },
    { timeoutMs: 10_000 },
  );
  const reset = new Promise<void>((resolve) => {
    const onMessage = (message: unknown): void => {
      if (!isHeartbeat(message) || message.maxLoopDelayMs !== 0) return;
      bot.off('message', onMessage);
      resolve();
    };
    bot.on('message', onMessage);
  });
  bot.send('reset');
  await reset;
}

function lastWords(slack: SlackFake, thread: { channel: string; ts: string } | undefined): string {
  if (thread === undefined) return '';
  const messages = slack.workspace.botMessages(slack.identity.botUserId, {
    channel: thread.channel,
    threadTs: thread.ts,
  });
  const text = messages.at(-1)?.text ?? '';
  return `${String(messages.length)} message(s), the last ${String(text.length)} chars ending "${text.slice(-120)}"`;
}

async function runCase(context: BenchContext, hostile: HostileCase): Promise<CaseResult> {
  const mentions = hostile.mentions();
  const channels = new Set(mentions.map((m) => m.channel));
  const slack = await startSlackFake({
    channels: [...channels].map((id) => ({ id, name: id.toLowerCase() })),
    events: ['app_mention'],
    echoBotMessages: false,
  });
  slackLimits(slack);
  const input: ImagineBotInput = {
    apiUrl: slack.apiUrl,
    botToken: slack.identity.botToken,
    signingSecret: slack.identity.signingSecret,
    serviceUrl: context.emulatorUrl,
    apiKey: context.apiKey,
    chatModel: CHAT_MODEL,
    imageModel: IMAGE_MODEL,
    scheduler: {},
    heartbeatMs: HEARTBEAT_MS,
  };
  const child = forkBenchChild(
    new URL('./chat-imagine-bot.ts', import.meta.url),
    [JSON.stringify(input)],
    (process.env.HOSTILE_FLAGS ?? '').split(' ').filter(Boolean),
  );
  const exited = once(child.process, 'exit').catch(() => undefined);
  try {
    const { port } = (await child.message) as { port: number };
    slack.deliverTo(`http://127.0.0.1:${String(port)}/slack/events`);
    await warmUp(slack, child.process);
    const watch = watchBot(child.process, HEARTBEAT_MS);
    const started = performance.now();
    const deadline = started + hostile.deadlineMs;
    // A bot stalled by the case may not even acknowledge the mentions: posting counts against the deadline too.
    const posted: Thread[] = [];
    await Promise.race([
      Promise.all(
        mentions.map(async (m) => {
          slack.workspace.addUser({ id: m.user, name: m.user.toLowerCase() });
          const message = await slack.userSays({
            user: m.user,
            channel: m.channel,
            text: `<@${slack.identity.botUserId}> ${m.text}`,
            ...(m.files === undefined ? {} : { files: m.files }),
          });
          posted.push({ channel: message.channel, ts: message.ts, user: m.user });
        }),
      ),
      sleep(hostile.deadlineMs, undefined, { ref: false }),
    ]);
    const settled = (): true | undefined => {
      if (hostile.toDeadline === true) return undefined;
      const calls = postsAndEdits(slack, channels);
      const lastCall = calls.at(-1)?.atMs ?? 0;
      const quiet = Date.now() - lastCall >= QUIET_MS;
      return quiet && threadStates(slack, posted).answered === mentions.length ? true : undefined;
    };
    await slack.waitFor(settled, { timeoutMs: Math.max(0, deadline - performance.now()) }).catch(() => undefined);
    const watched = await watch.finish();
    const states = threadStates(slack, posted);
    return {
      ...watched,
      ...states,
      silent: states.silent + mentions.length - posted.length,
      platformCalls: postsAndEdits(slack, channels).length,
      refused: slack.rateLimitHits.length,
      mentions: mentions.length,
      firstThreadEnd: lastWords(slack, posted[0]),
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    // The numbers are taken: asked to stop, the bot exits and writes any profile its flags asked for
    // (HOSTILE_FLAGS="--cpu-prof"); one stuck in a hostile case may not stop on request.
    if (child.process.connected) child.process.send('stop');
    await Promise.race([exited, sleep(STOP_GRACE_MS, undefined, { ref: false })]);
    child.process.kill('SIGKILL');
    await exited;
    await slack.close();
  }
}

function caseRows(hostile: HostileCase, ours: CaseResult, baseline: CaseResult): Row[] {
  const prefix = `hostile ${hostile.label}`;
  const rows = [
    boundedRow(`${prefix}: bot process died`, 'n', Number(ours.died), Number(baseline.died), 0),
    row(`${prefix}: peak RSS`, 'MiB', ours.peakRssMiB, baseline.peakRssMiB, TARGET_RSS_RATIO),
    boundedRow(`${prefix}: longest event-loop stall`, 'ms', ours.maxStallMs, baseline.maxStallMs, TARGET_STALL_MS),
  ];
  if (ours.mentions < 100) return rows;
  const perAnswer = (r: CaseResult) => r.platformCalls / Math.max(1, r.answered);
  return [
    ...rows,
    boundedRow(
      `${prefix}: posts+edits per final answer`,
      'x',
      perAnswer(ours),
      perAnswer(baseline),
      TARGET_CALLS_PER_ANSWER,
    ),
    boundedRow(`${prefix}: users with neither answer nor place in line`, 'n', ours.silent, baseline.silent, 0),
  ];
}

export const hostile: Benchmark = {
  name: 'hostile: endless line, 10 MB reply, flood, big edits against normal traffic (slack bot process)',
  async run(context) {
    const baseline = await runCase(context, BASELINE);
    process.stderr.write(`hostile: ${describe(BASELINE, baseline)}\n`);
    const rows: Row[] = [];
    for (const hostileCase of CASES.filter((c) => c.label.includes(ONLY))) {
      const result = await runCase(context, hostileCase);
      process.stderr.write(`hostile: ${describe(hostileCase, result)}\n`);
      rows.push(...caseRows(hostileCase, result, baseline));
    }
    return rows;
  },
};

function describe(hostileCase: HostileCase, r: CaseResult): string {
  return (
    `${hostileCase.label}: ${String(r.mentions)} mentions, ${r.seconds.toFixed(1)} s, ` +
    `${String(r.answered)} answered, ${String(r.inLine)} in line, ${String(r.toldPrivately)} told privately, ` +
    `${String(r.silent)} silent, ` +
    `${String(r.platformCalls)} posts+edits (${String(r.refused)} refused with 429), peak RSS ${r.peakRssMiB.toFixed(0)} MiB, ` +
    `stall ${r.maxStallMs.toFixed(0)} ms${r.died ? ', DIED' : ''}; first thread: ${r.firstThreadEnd}`
  );
}
