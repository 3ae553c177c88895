import type { ChatSurface } from '@genbot/core/surface';
import type { ChatJob, SurfaceFactory } from '@genbot/core/jobs';
import type { JobStep } from '@genbot/core/store';
import { type Client, InteractionWebhook } from 'discord.js';
import { ChannelSurface } from './channel-surface.js';
import { InteractionSurface } from './interaction-surface.js';

export interface DiscordSurfacesOptions {
  /** A REST client: one that never logged in does (see rest-client.ts); a gateway client does too. */
  client: Client;
  /** The application the interaction webhooks belong to. */
  applicationId: string;
  /** The bot user, to tell its own messages apart in a thread. */
  selfId: string;
  now?: () => number;
}

/**
 * Discord surfaces for jobs, from each job's data alone, over REST: a job
 * from an interaction (`/imagine`, a button, a form) answers through its
 * webhook while the token lasts, a mention job with channel messages that
 * reply to the mention.
 */
export class DiscordSurfaces implements SurfaceFactory {
  readonly platform = 'discord';
  readonly #client: Client;
  readonly #applicationId: string;
  readonly #channel: ChannelSurface;
  readonly #now: (() => number) | undefined;

  constructor(options: DiscordSurfacesOptions) {
    this.#client = options.client;
    this.#applicationId = options.applicationId;
    this.#channel = new ChannelSurface(options.client, options.selfId);
    this.#now = options.now;
  }

  /** A mention's job is cancelled by deleting the mention: the deletion handler cancels by job id. */
  cancelKey(job: ChatJob): string | undefined {
    return job.input.kind === 'mention' ? job.id : undefined;
  }

  surfaceFor(job: ChatJob, steps: readonly JobStep[] = []): ChatSurface {
    if (job.interaction === undefined) return this.#channel;
    // The typing asks for a logged-in client; the webhook only uses its REST and caches.
    const webhook = new InteractionWebhook(this.#client as Client<true>, this.#applicationId, job.interaction.token);
    return new InteractionSurface({
      webhook,
      paceKey: job.id,
      expiresAt: job.interaction.expiresAt,
      channel: this.#channel,
      // An edit with an interaction came from the Edit image form: its image replies to the message edited.
      resultsInChannel: job.input.kind === 'message-edit',
      shown: 'action' in job.input ? job.input.action.shown : undefined,
      shownBefore: steps.flatMap((step) => (step.messageId === undefined ? [] : [step.messageId])),
      ...(this.#now === undefined ? {} : { now: this.#now }),
    });
  }
}
