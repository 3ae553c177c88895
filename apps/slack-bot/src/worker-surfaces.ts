import { InMemoryThreadCache, type ThreadCache } from '@genbot/core/chat';
import type { Logger } from '@genbot/core/log';
import type { Metrics } from '@genbot/core/metrics';
import type { SurfaceFactory } from '@genbot/core/jobs';
import { webApi } from '@slack/bolt';
import { webClientOptions } from './app.js';
import { boltLogger } from './bolt-logger.js';
import { countRateLimits } from './delivery-metrics.js';
import type { SlackWebConfig } from './config.js';
import { SlackDmSurface } from './dm-surface.js';
import { slackSurfaces } from './job-surfaces.js';
import { SlackSurface } from './surface.js';
import { UserDirectory } from './user-directory.js';
import { whoAmI } from './who-am-i.js';

/**
 * Slack surfaces for a process that runs jobs and receives no events (`genbot
 * worker`): the Web API with this process's bot token (jobs carry none).
 * Without events to feed it, the thread cache starts empty: a thread is read
 * with conversations.replies the first time a job needs it.
 */
export async function connectSlackSurfaces(
  slack: SlackWebConfig,
  options: { logger: Logger; threads?: ThreadCache; metrics?: Metrics },
): Promise<SurfaceFactory> {
  const logger = options.logger.child({ component: 'slack-worker' });
  const client = new webApi.WebClient(slack.botToken, webClientOptions(slack.apiUrl, boltLogger(options.logger)));
  if (options.metrics !== undefined) countRateLimits(client, options.metrics);
  const identity = await whoAmI(client);
  const surfaceOptions = {
    client,
    identity,
    botToken: slack.botToken,
    apiUrl: slack.apiUrl,
    users: new UserDirectory((user) => client.users.info({ user }), logger),
    streaming: slack.streaming,
    logger,
    threads: options.threads ?? new InMemoryThreadCache(),
  };
  return slackSurfaces(new SlackSurface(surfaceOptions), new SlackDmSurface(surfaceOptions));
}
