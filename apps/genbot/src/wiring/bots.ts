import { BotRuntime } from '@genbot/core/runtime';
import { type DiscordBot, type DiscordBotOptions, startDiscordBot } from '@genbot/discord-bot';
import { type SlackBot, type SlackBotOptions, startSlackBot } from '@genbot/slack-bot';
import { Opened, type Stoppable, stopAll } from './closing.js';
import { type Jobs, type JobsOptions, openJobs } from './jobs.js';

/** What the wiring gives every bot itself: the jobs, the runtime, the logger, the metrics. */
type Wired = 'logger' | 'runtime' | 'jobs' | 'metrics';

export interface BotsOptions extends Omit<JobsOptions, 'runtime'> {
  /** The process's one runtime, for both bots and the jobs: caps and shutdown hold for all (default: a new one). */
  runtime?: BotRuntime | undefined;
  /**
   * Slack's bot, when it runs here; its thread cache is kept in the jobs' store unless `threads` is given,
   * and what it offers in DMs follows `conversation.tools`.
   */
  slack?: Omit<SlackBotOptions, Wired | 'threadStore' | 'installations' | 'chatTools'> | undefined;
  /** Discord's bot, when it runs here. */
  discord?: Omit<DiscordBotOptions, Wired> | undefined;
  /**
   * 'later': the jobs wait in the queue, their places in line shown, until `startWorker()` (tests of
   * what waiting looks like); default 'now'.
   */
  workerStarts?: 'now' | 'later' | undefined;
}

export interface Bots {
  slack: SlackBot | undefined;
  discord: DiscordBot | undefined;
  runtime: BotRuntime;
  jobs: Jobs;
  /** Resolves once this process's worker takes jobs (at once when another process runs them). */
  working: Promise<void>;
  /** Starts the worker, once: at start-up, or when a test that asked for it `later` says so. */
  startWorker(): Promise<void>;
  /**
   * The shutdown, in order: no job starts any more, not even one waiting in line (those not
   * started stay recorded for the next start); the bots finish their replies within the drain;
   * the jobs' queue and database close.
   */
  stages: { admission: Stoppable[]; bots: Stoppable[]; jobs: Stoppable[] };
  /** Runs `stages` in order, once (tests and benchmarks; the launcher puts its own parts between them). */
  stop(options?: { drainMs?: number }): Promise<void>;
}

/**
 * The bots on one jobs composition: the jobs opened, each bot given (Slack and Discord alike)
 * the intake, `/usage`, the result buttons and the runtime, then the worker started on their
 * surfaces. When a bot cannot start, the other one and the jobs are closed before the error goes on.
 */
export async function startBots(options: BotsOptions): Promise<Bots> {
  const { slack, discord, logger, metrics } = options;
  const runtime = options.runtime ?? new BotRuntime();
  const opened = new Opened();
  const jobs = openJobs({ ...options, runtime });
  opened.add(jobs.close, (part, drainMs) => part.stop(drainMs), jobs.close.name);
  const wired = { logger, runtime, jobs: jobs.botJobs, ...(metrics !== undefined && { metrics }) };
  const started = await Promise.allSettled([
    slack &&
      startSlackBot({
        ...slack,
        ...wired,
        threadStore: jobs.store.threads,
        installations: jobs.store.installations,
        chatTools: options.conversation?.tools,
      }),
    discord && startDiscordBot({ ...discord, ...wired }),
  ]);
  const [slackResult, discordResult] = started;
  const slackBot = slackResult.status === 'fulfilled' ? slackResult.value || undefined : undefined;
  const discordBot = discordResult.status === 'fulfilled' ? discordResult.value || undefined : undefined;
  const bots: Stoppable[] = [];
  for (const [name, bot] of [
    ['Slack bot', slackBot],
    ['Discord bot', discordBot],
  ] as const) {
    if (bot === undefined) continue;
    bots.push(opened.add({ name, stop: (drainMs: number) => bot.stop({ drainMs }) }, (part) => part.stop(0), name));
  }
  const failed = started.find((result) => result.status === 'rejected');
  if (failed !== undefined) {
    await opened.closeAll();
    throw failed.reason;
  }
  const surfaces = [slackBot, discordBot].flatMap((bot) => (bot ? [bot.surfaces] : []));
  const stages = {
    admission: [{ name: 'admission', stop: async () => runtime.close() }, jobs.stopTaking],
    bots,
    jobs: [jobs.close],
  };
  let stopped: Promise<void> | undefined;
  let working: Promise<void> | undefined;
  const startWorker = () => (working ??= jobs.startWorker(surfaces));
  if (options.workerStarts === 'later') jobs.showPlacesOn(surfaces);
  return {
    slack: slackBot,
    discord: discordBot,
    runtime,
    jobs,
    working: options.workerStarts === 'later' ? Promise.resolve() : startWorker(),
    startWorker,
    stages,
    stop: ({ drainMs = 2_000 } = {}) => {
      stopped ??= stopAll([stages.admission, stages.bots, stages.jobs], drainMs, logger).then(() => undefined);
      return stopped;
    },
  };
}
