import type { Logger } from 'pino';
import type { HttpTransport, Route } from './http-transport.js';
import type { SignatureMode } from './signing.js';
import type { SocketModeServer } from './socket-mode.js';

export type DeliveryKind = 'events_api' | 'slash_commands' | 'interactive' | 'url_verification';

export interface OutgoingDelivery {
  kind: DeliveryKind;
  /** The event_callback envelope, the slash command's fields, an interactivity payload, or the challenge. */
  payload: Record<string, unknown>;
  /** HTTP only: send a wrong or stale signature on purpose. */
  signature?: SignatureMode;
}

export interface AttemptInfo {
  /** 0 for the first delivery, then 1..3 (`X-Slack-Retry-Num` / `retry_attempt`). */
  retryNum: number;
  retryReason?: string;
}

/** Slack's retry reasons over HTTP; `timeout` is the Socket Mode one (no ack in time). */
export type FailureReason = 'http_timeout' | 'http_error' | 'connection_failed' | 'timeout';

export interface AttemptOutcome {
  acked: boolean;
  /** HTTP status, when there was a response. */
  status?: number;
  failure?: FailureReason;
  /** HTTP response text, or the Socket Mode acknowledgement's payload. */
  response?: unknown;
  /** HTTP: the URL (replica) this attempt went to. */
  target?: string;
}

export interface AttemptRecord extends AttemptOutcome, AttemptInfo {
  atMs: number;
}

export interface DeliveryRecord {
  id: number;
  kind: DeliveryKind;
  via: 'http' | 'socket';
  eventId?: string;
  eventType?: string;
  payload: Record<string, unknown>;
  signature: SignatureMode;
  attempts: AttemptRecord[];
  /** True once any attempt was acknowledged. */
  acked: boolean;
  /** Resolves when Slack would stop retrying (acknowledged, retries exhausted, or the fake closed). */
  settled: Promise<void>;
}

function eventMeta(delivery: OutgoingDelivery): { eventId?: string; eventType?: string } {
  if (delivery.kind !== 'events_api') return {};
  const { event_id: eventId, event } = delivery.payload;
  const type = typeof event === 'object' && event !== null && 'type' in event ? event.type : undefined;
  return {
    ...(typeof eventId === 'string' && { eventId }),
    ...(typeof type === 'string' && { eventType: type }),
  };
}

/**
 * Delivers events and commands to the bot the way Slack does: over Socket Mode when the app holds a
 * connection, else as signed HTTP POSTs to its Request URL; an event that is not acknowledged (no 200
 * within the ack timeout, or another status) is redelivered after each of `retryDelaysMs` (Slack: at
 * once, 1 min, 5 min) with the retry number and reason. Slash commands are never retried.
 */
export class EventDelivery {
  readonly deliveries: DeliveryRecord[] = [];
  readonly #http: HttpTransport;
  readonly #socket: SocketModeServer;
  readonly #retryDelaysMs: readonly number[];
  readonly #logger: Logger;
  readonly #closing = new AbortController();
  #nextId = 1;

  constructor(deps: {
    http: HttpTransport;
    socket: SocketModeServer;
    retryDelaysMs: readonly number[];
    logger: Logger;
  }) {
    this.#http = deps.http;
    this.#socket = deps.socket;
    this.#retryDelaysMs = deps.retryDelaysMs;
    this.#logger = deps.logger;
  }

  /** Sends the first attempt and resolves with its record once it is answered; retries continue in the background. */
  async deliver(delivery: OutgoingDelivery): Promise<DeliveryRecord> {
    const record = this.#newRecord(delivery);
    const first = await this.#attempt(record, delivery, { retryNum: 0 });
    let settle = () => {};
    record.settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    if (first.acked || delivery.kind !== 'events_api') settle();
    else void this.#retry(record, delivery, first.failure).finally(settle);
    return record;
  }

  /** Redelivers an event already sent (same `event_id`), as Slack's retries do, once; `to` picks the replica. */
  async redeliver(eventId: string, info: AttemptInfo, to?: string): Promise<DeliveryRecord> {
    const original = this.deliveries.find((d) => d.eventId === eventId);
    if (!original) throw new Error(`slack fake: no delivered event ${eventId}`);
    const delivery: OutgoingDelivery = {
      kind: original.kind,
      payload: original.payload,
      signature: original.signature,
    };
    const record = this.#newRecord(delivery);
    await this.#attempt(record, delivery, info, { to });
    record.settled = Promise.resolve();
    return record;
  }

  close(): void {
    this.#closing.abort();
  }

  /** Throws when there is no bot to deliver to, so drivers fail before changing any state. */
  assertReachable(): void {
    if (!this.#socket.connected && this.#http.targets.length === 0) {
      throw new Error('slack fake: nowhere to deliver to; call deliverTo(url) or connect a Socket Mode app first');
    }
  }

  #newRecord(delivery: OutgoingDelivery): DeliveryRecord {
    const via = this.#socket.connected && delivery.kind !== 'url_verification' ? 'socket' : 'http';
    if (via === 'http') this.assertReachable();
    const record: DeliveryRecord = {
      id: this.#nextId++,
      kind: delivery.kind,
      via,
      payload: delivery.payload,
      signature: delivery.signature ?? 'valid',
      attempts: [],
      acked: false,
      settled: Promise.resolve(),
      ...eventMeta(delivery),
    };
    this.deliveries.push(record);
    return record;
  }

  async #attempt(
    record: DeliveryRecord,
    delivery: OutgoingDelivery,
    info: AttemptInfo,
    route: Route = {},
  ): Promise<AttemptOutcome> {
    const atMs = Date.now();
    const outcome =
      record.via === 'socket'
        ? await this.#socket.send(delivery, info, this.#closing.signal)
        : await this.#http.send(delivery, info, this.#closing.signal, route);
    record.attempts.push({ ...info, ...outcome, atMs });
    if (outcome.acked) record.acked = true;
    this.#logger.debug(
      { id: record.id, kind: record.kind, via: record.via, ...info, ...outcome },
      'slack fake: delivery attempt',
    );
    return outcome;
  }

  async #retry(
    record: DeliveryRecord,
    delivery: OutgoingDelivery,
    firstFailure: FailureReason | undefined,
  ): Promise<void> {
    let reason = firstFailure;
    for (const [index, delayMs] of this.#retryDelaysMs.entries()) {
      if (!(await this.#sleep(delayMs))) return;
      const outcome = await this.#attempt(
        record,
        delivery,
        { retryNum: index + 1, ...(reason !== undefined && { retryReason: reason }) },
        { avoid: record.attempts.at(-1)?.target },
      );
      if (outcome.acked || this.#closing.signal.aborted) return;
      reason = outcome.failure;
    }
  }

  /** Resolves true after `ms`, or false as soon as the fake closes. */
  #sleep(ms: number): Promise<boolean> {
    const signal = this.#closing.signal;
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      }, ms);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
