import type { Metrics } from '@genbot/core/metrics';
import { type Client, Events, RESTEvents } from 'discord.js';

/** Counts the gateway events the bot acts on: messages (mentions among them) and interactions. */
export function countDeliveries(client: Client, metrics: Metrics): void {
  client.on(Events.MessageCreate, () => metrics.eventReceived({ platform: 'discord', kind: 'MESSAGE_CREATE' }));
  client.on(Events.InteractionCreate, () => metrics.eventReceived({ platform: 'discord', kind: 'INTERACTION_CREATE' }));
}

/** Counts REST's 429s by route template (`/channels/:id/messages`), never by ids. */
export function countRateLimits(client: Client, metrics: Metrics): void {
  client.rest.on(RESTEvents.Response, (request, response) => {
    if (response.status === 429) metrics.rateLimited({ platform: 'discord', route: request.route });
  });
}
