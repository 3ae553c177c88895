import type { ThreadCache } from '@genbot/core/chat';
import type { ChatJob, SurfaceFactory } from '@genbot/core/jobs';
import type { Logger } from '@genbot/core/log';
import { webApi } from '@slack/bolt';
import { SlackDmSurface } from './dm-surface.js';
import type { DeliveryOrigin } from './handlers/context.js';
import type { WorkspaceInstalls } from './install-provider.js';
import { slackSurfaces } from './job-surfaces.js';
import type { BotIdentity } from './parse-thread.js';
import { SlackSurface } from './surface.js';
import { UserDirectory } from './user-directory.js';
import { whoAmI } from './who-am-i.js';

/**
 * A Web API client whose every call carries its workspace's token as it is
 * at that moment (looked up, and refreshed when due, by `token`), so a
 * client made once serves a workspace across token rotations.
 */
export class WorkspaceClient extends webApi.WebClient {
  readonly #token: () => Promise<string>;

  constructor(token: () => Promise<string>, options: webApi.WebClientOptions) {
    super(undefined, options);
    this.#token = token;
  }

  override async apiCall(method: string, options: Record<string, unknown> = {}): Promise<webApi.WebAPICallResult> {
    return super.apiCall(method, { ...options, token: await this.#token() });
  }
}

/** What the bot answers one workspace with: its client, its bot's ids, its surfaces and thread cache. */
export interface WorkspaceParts {
  teamId: string;
  client: webApi.WebClient;
  identity(): Promise<BotIdentity>;
  surface: SlackSurface;
  dms: SlackDmSurface;
  threads: ThreadCache;
}

/** How a workspace's parts are made. */
export interface WorkspaceRecipe {
  client: webApi.WebClient;
  /** The bot token, for file downloads. */
  token: () => Promise<string>;
  /** Known already (one token's deployment), else asked with auth.test when first needed. */
  identity?: BotIdentity;
  threads: ThreadCache;
  apiUrl: string;
  streaming: 'edit' | 'native';
  logger: Logger;
}

export function workspaceParts(teamId: string, recipe: WorkspaceRecipe): WorkspaceParts {
  const { client, logger } = recipe;
  let asked: Promise<BotIdentity> | undefined =
    recipe.identity === undefined ? undefined : Promise.resolve(recipe.identity);
  const identity = (): Promise<BotIdentity> => {
    asked ??= whoAmI(client).catch((error: unknown) => {
      // Asked again next time: a refused or unreachable auth.test is not the bot's identity.
      asked = undefined;
      throw error;
    });
    return asked;
  };
  const options = {
    client,
    identity,
    teamId,
    botToken: recipe.token,
    apiUrl: recipe.apiUrl,
    users: new UserDirectory((user) => client.users.info({ user }), logger),
    streaming: recipe.streaming,
    logger,
    threads: recipe.threads,
  };
  return {
    teamId,
    client,
    identity,
    surface: new SlackSurface(options),
    dms: new SlackDmSurface(options),
    threads: recipe.threads,
  };
}

/**
 * Every workspace's parts: with one bot token, the one workspace; with
 * installs, each workspace's made when it is first met (a delivery from it,
 * or a job of it) and kept until it is uninstalled.
 */
export class SlackWorkspaces {
  readonly #make: (workspaceId: string, origin: DeliveryOrigin) => WorkspaceParts;
  readonly #parts = new Map<string, WorkspaceParts>();

  private constructor(make: (workspaceId: string, origin: DeliveryOrigin) => WorkspaceParts) {
    this.#make = make;
  }

  /** One workspace, whatever a delivery or job names. */
  static single(parts: WorkspaceParts): SlackWorkspaces {
    return new SlackWorkspaces(() => parts);
  }

  /** A workspace's parts from its installation: `make` is given where the first delivery came from. */
  static installed(make: (workspaceId: string, origin: DeliveryOrigin) => WorkspaceParts): SlackWorkspaces {
    return new SlackWorkspaces(make);
  }

  /** A delivery's workspace: its team, or its enterprise for an org-level delivery that names no team. */
  of(origin: DeliveryOrigin): WorkspaceParts {
    const workspaceId = origin.teamId ?? origin.enterpriseId ?? '';
    let parts = this.#parts.get(workspaceId);
    if (parts === undefined) {
      parts = this.#make(workspaceId, origin);
      this.#parts.set(workspaceId, parts);
    }
    return parts;
  }

  forget(workspaceId: string): void {
    this.#parts.delete(workspaceId);
  }

  /** What a job worker answers Slack jobs with: the surfaces of the job's workspace. */
  surfaces(): SurfaceFactory {
    const at = (job: ChatJob) => this.of({ teamId: job.workspaceId });
    return slackSurfaces({ surfaceOf: (job) => at(job).surface, dmsOf: (job) => at(job).dms });
  }
}

/** Each workspace's parts from its installation, every call made with its token as it is then. */
export function installedWorkspaces(input: {
  installs: Pick<WorkspaceInstalls, 'botToken'>;
  clientOptions: webApi.WebClientOptions;
  /** Each new client (one a workspace), for its rate-limit count. */
  watch?: (client: webApi.WebClient) => void;
  threads: (workspaceId: string) => ThreadCache;
  apiUrl: string;
  streaming: 'edit' | 'native';
  logger: Logger;
}): SlackWorkspaces {
  const { installs, clientOptions, apiUrl, streaming, logger } = input;
  return SlackWorkspaces.installed((workspaceId, origin) => {
    const token = () => installs.botToken(origin);
    const client = new WorkspaceClient(token, clientOptions);
    input.watch?.(client);
    return workspaceParts(workspaceId, {
      client,
      token,
      threads: input.threads(workspaceId),
      apiUrl,
      streaming,
      logger,
    });
  });
}
