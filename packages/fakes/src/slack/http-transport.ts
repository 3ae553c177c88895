import { request as httpRequest } from 'node:http';
import type { Logger } from 'pino';
import type { AttemptInfo, AttemptOutcome, OutgoingDelivery } from './event-delivery.js';
import { signatureHeaders } from './signing.js';

/** Events and challenges go as JSON, slash commands form-encoded, interactivity as a form's `payload` JSON, as Slack posts them. */
function encode(delivery: OutgoingDelivery): { body: string; contentType: string } {
  if (delivery.kind === 'interactive') {
    const form = new URLSearchParams({ payload: JSON.stringify(delivery.payload) });
    return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  if (delivery.kind === 'slash_commands') {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(delivery.payload)) form.set(key, String(value));
    return { body: form.toString(), contentType: 'application/x-www-form-urlencoded' };
  }
  return { body: JSON.stringify(delivery.payload), contentType: 'application/json' };
}

/**
 * One POST on its own connection (`Connection: close`): a delivery abandoned at the ack timeout must
 * not leave a pooled socket that keeps the bot's server from closing.
 */
function post(
  target: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  closing: AbortSignal,
): Promise<{ status: number; body: string } | 'timeout' | Error> {
  return new Promise((resolve) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const request = httpRequest(target, {
      method: 'POST',
      agent: false,
      headers: { ...headers, connection: 'close', 'content-length': String(Buffer.byteLength(body)) },
      signal: AbortSignal.any([timeout, closing]),
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      response.on('error', (error) => resolve(timeout.aborted ? 'timeout' : error));
    });
    request.on('error', (error) => resolve(timeout.aborted ? 'timeout' : error));
    request.end(body);
  });
}

/** Which replica an attempt goes to: `to` when chosen, else the next in turn other than `avoid`. */
export interface Route {
  to?: string | undefined;
  avoid?: string | undefined;
}

/**
 * Signed POSTs to the bot's Request URL (e.g. `http://127.0.0.1:PORT/slack/events`), or to several
 * replicas of it in turn, as a load balancer in front of them would spread Slack's requests.
 */
export class HttpTransport {
  #targets: readonly string[] = [];
  #next = 0;
  readonly #signingSecret: string;
  readonly #ackTimeoutMs: number;
  readonly #logger: Logger;

  constructor(deps: { signingSecret: string; ackTimeoutMs: number; logger: Logger }) {
    this.#signingSecret = deps.signingSecret;
    this.#ackTimeoutMs = deps.ackTimeoutMs;
    this.#logger = deps.logger;
  }

  get targets(): readonly string[] {
    return this.#targets;
  }

  set targets(urls: readonly string[]) {
    this.#targets = [...urls];
    this.#next = 0;
  }

  async send(
    delivery: OutgoingDelivery,
    attempt: AttemptInfo,
    closing: AbortSignal,
    route: Route = {},
  ): Promise<AttemptOutcome> {
    const target = this.#pick(route);
    if (target === undefined) return { acked: false, failure: 'connection_failed' };
    return { ...(await this.#post(target, delivery, attempt, closing)), target };
  }

  #pick(route: Route): string | undefined {
    if (route.to !== undefined) return route.to;
    const targets = this.#targets;
    const turn = (): string | undefined => targets[this.#next++ % targets.length];
    const target = turn();
    // A retry goes to another replica when there is one, as Slack's retry reaches whichever the balancer picks.
    return target === route.avoid && targets.length > 1 ? turn() : target;
  }

  async #post(
    target: string,
    delivery: OutgoingDelivery,
    attempt: AttemptInfo,
    closing: AbortSignal,
  ): Promise<AttemptOutcome> {
    const { body, contentType } = encode(delivery);
    const headers: Record<string, string> = {
      'content-type': contentType,
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      ...signatureHeaders(this.#signingSecret, body, delivery.signature),
    };
    if (attempt.retryNum > 0) {
      headers['x-slack-retry-num'] = String(attempt.retryNum);
      headers['x-slack-retry-reason'] = attempt.retryReason ?? 'unknown_error';
    }
    const response = await post(target, headers, body, this.#ackTimeoutMs, closing);
    if (response === 'timeout') return { acked: false, failure: 'http_timeout' };
    if (response instanceof Error) {
      this.#logger.warn({ target, error: response.message }, 'slack fake: delivery failed');
      return { acked: false, failure: 'connection_failed' };
    }
    if (response.status !== 200) {
      this.#logger.warn({ target, status: response.status, kind: delivery.kind }, 'slack fake: bot refused a delivery');
      return { acked: false, status: response.status, failure: 'http_error', response: response.body };
    }
    return { acked: true, status: 200, response: response.body };
  }
}
