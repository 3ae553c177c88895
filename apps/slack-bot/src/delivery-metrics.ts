import type { Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Metrics } from '@genbot/core/metrics';
import { type App, webApi } from '@slack/bolt';
import { z } from 'zod';

/** Event and payload types this app is sent; anything else is counted as `other`, so labels stay few. */
const KINDS = new Set([
  'app_mention',
  'message',
  'app_home_opened',
  'assistant_thread_started',
  'command',
  'block_actions',
  'view_submission',
  'view_closed',
  'url_verification',
]);

const delivery = z.object({
  type: z.string().optional(),
  command: z.string().optional(),
  event: z.object({ type: z.string() }).optional(),
});

/** What a delivery is, as a metric label: the event's type, `command`, or the interactivity payload's type. */
export function deliveryKind(body: unknown): string {
  const parsed = delivery.safeParse(body);
  if (!parsed.success) return 'other';
  const { type, command, event } = parsed.data;
  const kind = event?.type ?? (command === undefined ? type : 'command');
  return kind !== undefined && KINDS.has(kind) ? kind : 'other';
}

/** Counts every delivery Bolt hands to the listeners, by kind. */
export function countDeliveries(app: App, metrics: Metrics): void {
  app.use(async ({ body, next }) => {
    metrics.eventReceived({ platform: 'slack', kind: deliveryKind(body) });
    await next();
  });
}

/** Times every answer of the HTTP receiver, from the request's arrival to its response sent: Slack's ack latency. */
export function timeAcknowledgements(server: Server, metrics: Metrics): void {
  server.on('request', (_request, response) => {
    const arrived = performance.now();
    response.once('finish', () => {
      metrics.acknowledged({ platform: 'slack', seconds: (performance.now() - arrived) / 1000 });
    });
  });
}

/** `chat.update` from the URL the client called (`https://slack.com/api/chat.update`). */
export function webApiMethod(url: string): string {
  return url.slice(url.lastIndexOf('/') + 1).split('?')[0] ?? url;
}

/** Counts the Web API's 429s by method (the client is told to throw them, so core waits and retries). */
export function countRateLimits(client: webApi.WebClient, metrics: Metrics): void {
  client.on(webApi.WebClientEvent.RATE_LIMITED, (_retryAfterSeconds: number, request: { url: string }) => {
    metrics.rateLimited({ platform: 'slack', route: webApiMethod(request.url) });
  });
}
