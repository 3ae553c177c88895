import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { z } from 'zod';
import type { AttemptInfo, AttemptOutcome, OutgoingDelivery } from './event-delivery.js';

const SOCKET_PATH = '/link/';

const ackSchema = z.object({ envelope_id: z.string(), payload: z.unknown().optional() });

function frameText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (data instanceof ArrayBuffer ? Buffer.from(data) : data).toString('utf8');
}

interface PendingAck {
  resolve(outcome: AttemptOutcome): void;
}

/**
 * Slack's Socket Mode server side: `apps.connections.open` issues one-time `ws://…/link/?ticket=…`
 * URLs; a connection gets `hello`, then envelopes `{ envelope_id, type, payload, … }` that the client
 * acknowledges with `{ envelope_id, payload? }`. Pings keep @slack/socket-mode's server-ping watchdog
 * fed; `ws` answers the client's pings by itself.
 */
export class SocketModeServer {
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #tickets = new Set<string>();
  readonly #sockets: WebSocket[] = [];
  readonly #pending = new Map<string, PendingAck>();
  readonly #appId: string;
  readonly #ackTimeoutMs: number;
  readonly #pingIntervalMs: number;
  readonly #logger: Logger;

  constructor(deps: { appId: string; ackTimeoutMs: number; pingIntervalMs: number; logger: Logger }) {
    this.#appId = deps.appId;
    this.#ackTimeoutMs = deps.ackTimeoutMs;
    this.#pingIntervalMs = deps.pingIntervalMs;
    this.#logger = deps.logger;
  }

  /** A one-time URL for `apps.connections.open`; `wsBase` is `ws://127.0.0.1:PORT`. */
  openUrl(wsBase: string): string {
    const ticket = randomBytes(16).toString('hex');
    this.#tickets.add(ticket);
    return `${wsBase}${SOCKET_PATH}?ticket=${ticket}&app_id=${this.#appId}`;
  }

  get connected(): boolean {
    return this.#sockets.some((s) => s.readyState === WebSocket.OPEN);
  }

  /** Takes an HTTP upgrade if it is for a Socket Mode URL; answers false otherwise. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (url.pathname !== SOCKET_PATH) return false;
    const ticket = url.searchParams.get('ticket') ?? '';
    if (!this.#tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return true;
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws));
    return true;
  }

  #accept(ws: WebSocket): void {
    this.#sockets.push(ws);
    const ping = setInterval(() => ws.ping(), this.#pingIntervalMs);
    ping.unref();
    ws.on('message', (data) => this.#onMessage(data));
    ws.on('close', () => {
      clearInterval(ping);
      this.#sockets.splice(this.#sockets.indexOf(ws), 1);
    });
    ws.on('error', (error) => this.#logger.warn({ error: String(error) }, 'slack fake: socket mode connection error'));
    ws.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.#sockets.length,
        debug_info: { host: 'applink-fake', build_number: 1, approximate_connection_time: 18060 },
        connection_info: { app_id: this.#appId },
      }),
    );
  }

  #onMessage(data: RawData): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(frameText(data));
    } catch {
      this.#logger.warn('slack fake: unparsable socket mode frame');
      return;
    }
    const ack = ackSchema.safeParse(parsed);
    if (!ack.success) {
      this.#logger.warn({ frame: parsed }, 'slack fake: socket mode frame is not an acknowledgement');
      return;
    }
    const pending = this.#pending.get(ack.data.envelope_id);
    if (!pending) return;
    this.#pending.delete(ack.data.envelope_id);
    pending.resolve({ acked: true, ...(ack.data.payload !== undefined && { response: ack.data.payload }) });
  }

  /** Sends one envelope over the newest open connection and waits for its acknowledgement. */
  send(delivery: OutgoingDelivery, attempt: AttemptInfo, closing: AbortSignal): Promise<AttemptOutcome> {
    const socket = this.#sockets.findLast((s) => s.readyState === WebSocket.OPEN);
    if (!socket) return Promise.resolve({ acked: false, failure: 'connection_failed' });
    const envelopeId = randomUUID();
    const isEvent = delivery.kind === 'events_api';
    const envelope = {
      envelope_id: envelopeId,
      type: delivery.kind,
      payload: delivery.payload,
      accepts_response_payload: !isEvent,
      ...(isEvent && { retry_attempt: attempt.retryNum, retry_reason: attempt.retryReason ?? '' }),
    };
    return new Promise((resolve) => {
      const finish = (outcome: AttemptOutcome) => {
        clearTimeout(timer);
        closing.removeEventListener('abort', onClose);
        this.#pending.delete(envelopeId);
        resolve(outcome);
      };
      const onClose = () => finish({ acked: false, failure: 'connection_failed' });
      const timer = setTimeout(() => finish({ acked: false, failure: 'timeout' }), this.#ackTimeoutMs);
      closing.addEventListener('abort', onClose);
      this.#pending.set(envelopeId, { resolve: finish });
      socket.send(JSON.stringify(envelope));
    });
  }

  /** Asks clients to reconnect, as Slack does before recycling a server (`refresh_requested`, `link_disabled`…). */
  requestReconnect(reason = 'refresh_requested'): void {
    for (const socket of this.#sockets) {
      socket.send(JSON.stringify({ type: 'disconnect', reason, debug_info: { host: 'applink-fake' } }));
    }
  }

  close(): void {
    for (const socket of [...this.#sockets]) socket.terminate();
    this.#wss.close();
  }
}
