import { Writable } from 'node:stream';
import { loadConfig } from '@genbot/core/config';
import { GenAiClient } from '@genbot/core/genai';
import type { JobIntake } from '@genbot/core/jobs';
import { createLogger } from '@genbot/core/log';
import { InMemorySeenKeys } from '@genbot/core/scheduling';
import type { Store } from '@genbot/core/store';
import { startEmulator, type Emulator } from '@genbot/emulator';
import { startSlackFake, type SlackFake } from '@genbot/fakes';
import { PromMetrics } from '@genbot/health';
import { parseSlackEnv } from '@genbot/slack-bot';
import { inMemoryDatabase, startBots } from '@genbot/cli/wiring';
import { webApi } from '@slack/bolt';
import { SECRETS } from './harness.js';

/**
 * The real bot (Bolt over HTTP) on the fake with the AI-app features on: the
 * jobs' intake (what the DM path submits a turn through), the bot's seen keys
 * (which threads the assistant view opened), its `/metrics` registry, and a
 * Web API client with its token, as the DM path's hooks get them.
 */
export interface AiAppHarness {
  slack: SlackFake;
  emulator: Emulator;
  intake: JobIntake;
  store: Store;
  seen: InMemorySeenKeys;
  metrics: PromMetrics;
  client: webApi.WebClient;
  logs(): string;
  close(): Promise<void>;
}

export async function startAiAppHarness(
  options: { streaming?: 'edit' | 'native'; chatTools?: 'on' | 'off' } = {},
): Promise<AiAppHarness> {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger({ level: 'debug', destination });
  const slack = await startSlackFake({
    botToken: SECRETS.botToken,
    signingSecret: SECRETS.signingSecret,
    retryDelaysMs: [50, 100, 100],
    // The tests submit DM turns themselves, as the DM path does: without message events, no path submits them twice.
    events: ['app_mention'],
  });
  const emulator = await startEmulator({ apiKey: SECRETS.apiKey });
  const client = new GenAiClient({ baseUrl: emulator.url, apiKey: SECRETS.apiKey, retryBaseDelayMs: 5, logger });
  const config = parseSlackEnv({
    SLACK_BOT_TOKEN: SECRETS.botToken,
    SLACK_SIGNING_SECRET: SECRETS.signingSecret,
    SLACK_API_URL: slack.apiUrl,
    SLACK_PORT: '0',
    SLACK_STREAMING: options.streaming ?? 'edit',
  });
  const seen = new InMemorySeenKeys();
  const metrics = new PromMetrics();
  const bots = await startBots({
    slack: { slack: config.bot!, seen },
    database: await inMemoryDatabase(),
    models: { client, chatModel: 'claude-e2e', imageModel: 'gemini-image-e2e' },
    logger,
    metrics,
    conversation: loadConfig({ CHAT_TOOLS: options.chatTools ?? 'on' }).chat,
  });
  await bots.working;
  slack.deliverTo(`http://127.0.0.1:${String(bots.slack?.port)}/slack/events`);
  return {
    slack,
    emulator,
    intake: bots.jobs.botJobs.intake,
    store: bots.jobs.store,
    seen,
    metrics,
    client: new webApi.WebClient(SECRETS.botToken, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } }),
    logs: () => lines.join(''),
    close: async () => {
      await bots.stop({ drainMs: 2_000 });
      await client.close();
      await slack.close();
      await emulator.close();
    },
  };
}
