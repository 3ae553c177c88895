import { randomBytes } from 'node:crypto';
import type { CoreConfig } from '@genbot/core/config';
import type { Logger } from '@genbot/core/log';
import { startDiscordFake, startSlackFake, type DiscordFake, type SlackFake } from '@genbot/fakes';
import type { OperatorSettings } from '@genbot/core/settings';
import { ModelCalls, type ModelsUsed, startPlayground, type Playground } from '@genbot/playground';
import type { OpenService } from '../service.js';
import { type Bots, startBots } from '../wiring/bots.js';
import { Opened, type Stoppable } from '../wiring/closing.js';
import { inMemoryDatabase } from '../wiring/jobs.js';
import { jobsOfCore, modelsOf } from './job-settings.js';
import type { LaunchPlan } from './launch.js';
import { safeBase } from './summary.js';

export interface LocalPlayground {
  playground: Playground;
  /**
   * Both bots on one runtime and a fresh database for this run (the fakes start empty each time):
   * their admission closes first on shutdown, the database after the bots.
   */
  bots: Bots;
  /** After the bots: the playground (once it sent its last state), then the fakes. */
  closing: Stoppable[][];
}

/**
 * No bot token: Slack and Discord emulated on loopback, the page on PLAYGROUND_PORT, and the real
 * bots connected to the emulated platforms. The fakes get random credentials so nothing else on
 * the machine can pose as them.
 */
export async function startLocalPlayground(options: {
  core: CoreConfig;
  plan: Extract<LaunchPlan, { kind: 'playground' }>;
  service: OpenService;
  logger: Logger;
}): Promise<LocalPlayground> {
  const { core, plan, service, logger } = options;
  const secret = () => randomBytes(18).toString('hex');
  const opened = new Opened();
  return opened.rollbackOnError(async () => {
    const [slackFake, discordFake] = await Promise.all([
      startSlackFake({ botToken: `xoxb-${secret()}`, signingSecret: secret(), botName: 'genbot' }).then((fake) =>
        opened.add(fake, (it) => it.close(), 'Slack emulator'),
      ),
      startDiscordFake({
        botToken: secret(),
        botUsername: 'genbot',
        guild: { name: 'genbot playground', channels: ['general'] },
      }).then((fake) => opened.add(fake, (it) => it.close(), 'Discord emulator')),
    ]);
    const label = service.emulated ? 'offline emulator' : safeBase(service.baseUrl);
    const calls = new ModelCalls();
    const playground = opened.add(
      await startPlaygroundOn(
        plan.port,
        slackFake,
        discordFake,
        logger,
        {
          label,
          emulated: service.emulated,
          chatModel: core.service.chatModel,
          imageModel: core.service.imageModel,
        },
        () => calls.latest(),
      ),
      (it) => it.close(),
      'playground',
    );
    const models = modelsOf(core, service);
    const bots = await startBots({
      ...jobsOfCore(core),
      operator: playgroundOperator(core.operator, service.emulated),
      // In memory: old jobs and buttons would point at messages the new fakes never had.
      database: await inMemoryDatabase(logger),
      models: { ...models, client: calls.watch(models.client) },
      logger,
      slack: {
        slack: {
          botToken: slackFake.identity.botToken,
          connection: { mode: 'http', signingSecret: slackFake.identity.signingSecret, port: 0 },
          apiUrl: slackFake.apiUrl,
          streaming: plan.slackStreaming,
        },
      },
      discord: {
        discord: { token: discordFake.botToken, applicationId: discordFake.applicationId, apiUrl: discordFake.apiUrl },
        // Global, as production registers them: only these reach a DM with the bot.
        registerCommands: {},
      },
    });
    const { port } = bots.slack ?? {};
    if (port === undefined) {
      await bots.stop({ drainMs: 0 });
      throw new Error('the Slack bot did not start in HTTP mode');
    }
    slackFake.deliverTo(`http://127.0.0.1:${port}/slack/events`);
    return { playground, bots, closing: opened.stages() };
  });
}

/** A second model of each kind the offline emulator answers, for a channel's settings to choose. */
export const PLAYGROUND_MODELS = { chat: 'claude-opus-5', image: 'gemini-3.1-pro-image' } as const;

/**
 * CHAT_MODELS and IMAGE_MODELS as the playground offers them: with the offline emulator (which
 * answers any model) and one model of a kind configured, a second one, so /genbot's form has a
 * choice to show. A real service gets only the models its operator listed.
 */
export function playgroundOperator(operator: OperatorSettings, emulated: boolean): OperatorSettings {
  if (!emulated) return operator;
  const withSecond = (models: readonly string[], second: string): string[] =>
    models.length > 1 || models.includes(second) ? [...models] : [...models, second];
  return {
    ...operator,
    chatModels: withSecond(operator.chatModels, PLAYGROUND_MODELS.chat),
    imageModels: withSecond(operator.imageModels, PLAYGROUND_MODELS.image),
  };
}

async function startPlaygroundOn(
  port: number,
  slack: SlackFake,
  discord: DiscordFake,
  logger: Logger,
  service: { label: string; emulated: boolean; chatModel: string; imageModel: string },
  modelsUsed: () => ModelsUsed,
): Promise<Playground> {
  try {
    return await startPlayground({ port, slack, discord, logger, service, modelsUsed });
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'EADDRINUSE') {
      throw new Error(`port ${port} is already in use: set PLAYGROUND_PORT to a free port`);
    }
    throw err;
  }
}
