import { InMemoryThreadCache, type ThreadCache } from '@genbot/core/chat';
import type { Logger } from '@genbot/core/log';
import type { Metrics } from '@genbot/core/metrics';
import type { SurfaceFactory } from '@genbot/core/jobs';
import type { InstallationStore } from '@genbot/core/store';
import { webApi } from '@slack/bolt';
import { webClientOptions } from './app.js';
import { boltLogger } from './bolt-logger.js';
import { countRateLimits } from './delivery-metrics.js';
import type { SlackWebConfig } from './config.js';
import { WorkspaceInstalls } from './install-provider.js';
import { installedWorkspaces, SlackWorkspaces, workspaceParts } from './workspaces.js';
import { whoAmI } from './who-am-i.js';

/**
 * Slack surfaces for a process that runs jobs and receives no events (`genbot
 * worker`): the Web API with this process's bot token, or with installs each
 * job's workspace's token from the store of installations (refreshed, when
 * due, under the same lease as the bots'). Without events to feed it, the
 * thread cache starts empty: a thread is read with conversations.replies the
 * first time a job needs it.
 */
export async function connectSlackSurfaces(
  slack: SlackWebConfig,
  options: { logger: Logger; threads?: ThreadCache; metrics?: Metrics; installations?: InstallationStore },
): Promise<SurfaceFactory> {
  const logger = options.logger.child({ component: 'slack-worker' });
  const libraryLogger = boltLogger(options.logger);
  const clientOptions = webClientOptions(slack.apiUrl, libraryLogger);
  const { metrics } = options;
  const watch = (client: webApi.WebClient) => {
    if (metrics !== undefined) countRateLimits(client, metrics);
  };
  const threads = options.threads ?? new InMemoryThreadCache();
  const recipe = { apiUrl: slack.apiUrl, streaming: slack.streaming, logger };
  if (slack.installs !== undefined) {
    if (options.installations === undefined) throw new Error('installs need the store of installations');
    const installs = new WorkspaceInstalls({
      installs: slack.installs,
      apiUrl: slack.apiUrl,
      store: options.installations,
      logger,
      libraryLogger,
      clientOptions,
    });
    return installedWorkspaces({ ...recipe, installs, clientOptions, watch, threads: () => threads }).surfaces();
  }
  const { botToken } = slack;
  const client = new webApi.WebClient(botToken, clientOptions);
  watch(client);
  const identity = await whoAmI(client);
  const token = async () => botToken;
  return SlackWorkspaces.single(
    workspaceParts(identity.teamId, { ...recipe, client, token, identity, threads }),
  ).surfaces();
}
