import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod';
import { Intent } from './permissions.js';
import { onShard, type ShardInfo } from './shards.js';
import type { Json } from './wire.js';

export const GATEWAY_PATH = '/gateway';

const Op = {
  Dispatch: 0,
  Heartbeat: 1,
  Identify: 2,
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  Resume: 6,
  RequestGuildMembers: 8,
  InvalidSession: 9,
  Hello: 10,
  HeartbeatAck: 11,
} as const;

/** Gateway close codes the fake uses (Discord's numbers). */
export const CloseCode = {
  UnknownError: 4000,
  UnknownOpcode: 4001,
  DecodeError: 4002,
  NotAuthenticated: 4003,
  AuthenticationFailed: 4004,
  AlreadyAuthenticated: 4005,
  InvalidApiVersion: 4012,
  InvalidShard: 4010,
  DisallowedIntents: 4014,
} as const;

const frameSchema = z.object({ op: z.number().int(), d: z.unknown() });
const identifySchema = z.object({
  token: z.string(),
  intents: z.number().int().nonnegative(),
  properties: z.record(z.string(), z.unknown()),
  shard: z.tuple([z.number().int(), z.number().int()]).optional(),
});
const resumeSchema = z.object({ token: z.string(), session_id: z.string(), seq: z.number().int().nullable() });

export interface GatewaySession {
  readonly id: string;
  readonly intents: number;
  /** From IDENTIFY; `[0, 1]` when the client does not shard. */
  readonly shard: ShardInfo;
}

export interface Dispatch {
  readonly t: string;
  readonly d: Json;
}

export interface GatewayOptions {
  readonly botToken: string;
  readonly heartbeatIntervalMs: number;
  readonly allowMessageContentIntent: boolean;
  /** Where clients reconnect to RESUME (READY's `resume_gateway_url`). */
  readonly resumeUrl: string;
  readonly logger: Logger;
  /** READY's payload and the dispatches that follow it (the guild) for a new session. */
  readonly onIdentify: (session: GatewaySession) => { ready: Json; afterReady: readonly Dispatch[] };
}

/** Frames kept per session for RESUME; Discord's own buffer is bounded too. */
const REPLAY_LIMIT = 1000;

interface Session extends GatewaySession {
  seq: number;
  readonly sent: { s: number; text: string }[];
  socket: WebSocket | null;
}

/**
 * The gateway WebSocket: HELLO, IDENTIFY -> READY, heartbeats, RESUME with replay, and
 * dispatches to every identified session (kept while disconnected, so RESUME can replay).
 */
export class Gateway {
  readonly #options: GatewayOptions;
  readonly #server = new WebSocketServer({ noServer: true });
  readonly #sessions = new Map<string, Session>();
  /** Sockets the fake closed itself: their sessions stay resumable whatever code comes back. */
  readonly #droppedByUs = new WeakSet<WebSocket>();

  constructor(options: GatewayOptions) {
    this.#options = options;
    this.#server.on('connection', (socket, request) => this.#onConnection(socket, request));
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#server.handleUpgrade(request, socket, head, (ws) => this.#server.emit('connection', ws, request));
  }

  /** Sessions currently connected (identified or resumed). */
  get connectedSessions(): readonly GatewaySession[] {
    return [...this.#sessions.values()].filter((session) => session.socket !== null);
  }

  /**
   * Sends an event of `guildId` (null: not in a guild) to every session on its shard;
   * `build` returns undefined to skip one (e.g. missing intent).
   */
  dispatch(t: string, guildId: string | null, build: (session: GatewaySession) => Json | undefined): void {
    for (const session of this.#sessions.values()) {
      if (!onShard(guildId, session.shard)) continue;
      const d = build(session);
      if (d !== undefined) this.#send(session, t, d);
    }
  }

  /** Closes every connection with `code` (e.g. 4000, which clients answer with RESUME). */
  dropConnections(code: number): void {
    for (const socket of this.#server.clients) {
      this.#droppedByUs.add(socket);
      socket.close(code);
    }
  }

  async close(): Promise<void> {
    for (const socket of this.#server.clients) socket.terminate();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #onConnection(socket: WebSocket, request: IncomingMessage): void {
    const query = new URL(request.url ?? '/', 'ws://fake').searchParams;
    if (query.get('v') !== '10') {
      socket.close(CloseCode.InvalidApiVersion, 'Invalid API version');
      return;
    }
    if ((query.get('encoding') ?? 'json') !== 'json') {
      socket.close(CloseCode.DecodeError, 'Only JSON encoding');
      return;
    }
    let session: Session | null = null;
    socket.on('message', (data, isBinary) => {
      session = this.#onFrame(socket, session, data, isBinary);
    });
    socket.on('close', (code) => {
      if (!session || session.socket !== socket) return;
      session.socket = null;
      // A client closing with 1000/1001 ends its session on Discord; any other close keeps it resumable.
      if ((code === 1000 || code === 1001) && !this.#droppedByUs.has(socket)) this.#sessions.delete(session.id);
    });
    this.#sendFrame(socket, {
      op: Op.Hello,
      d: { heartbeat_interval: this.#options.heartbeatIntervalMs, _trace: ['fake-gateway'] },
      s: null,
      t: null,
    });
  }

  /** Handles one frame; returns the socket's session after it. */
  #onFrame(socket: WebSocket, session: Session | null, data: RawData, isBinary: boolean): Session | null {
    const frame = isBinary ? undefined : frameSchema.safeParse(parseJson(rawText(data)));
    if (!frame?.success) {
      socket.close(CloseCode.DecodeError, 'Error while decoding payload.');
      return session;
    }
    const { op, d } = frame.data;
    switch (op) {
      case Op.Heartbeat:
        this.#sendFrame(socket, { op: Op.HeartbeatAck, d: null, s: null, t: null });
        return session;
      case Op.Identify:
        return this.#identify(socket, session, d);
      case Op.Resume:
        return this.#resume(socket, session, d);
      case Op.PresenceUpdate:
      case Op.VoiceStateUpdate:
      case Op.RequestGuildMembers:
        // Accepted and ignored: the fake has no presences, voice or member chunks to send.
        if (!session) socket.close(CloseCode.NotAuthenticated, 'Not authenticated.');
        return session;
      default:
        socket.close(session ? CloseCode.UnknownOpcode : CloseCode.NotAuthenticated, 'Unknown opcode.');
        return session;
    }
  }

  #identify(socket: WebSocket, current: Session | null, d: unknown): Session | null {
    if (current) {
      socket.close(CloseCode.AlreadyAuthenticated, 'Already authenticated.');
      return current;
    }
    const identify = identifySchema.safeParse(d);
    if (!identify.success) {
      socket.close(CloseCode.DecodeError, 'Error while decoding payload.');
      return null;
    }
    if (identify.data.token !== this.#options.botToken) {
      this.#options.logger.info('gateway: IDENTIFY with a bad token, closing 4004');
      socket.close(CloseCode.AuthenticationFailed, 'Authentication failed.');
      return null;
    }
    const shard = identify.data.shard ?? [0, 1];
    if (shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1]) {
      socket.close(CloseCode.InvalidShard, 'Invalid shard.');
      return null;
    }
    if ((identify.data.intents & Intent.MessageContent) !== 0 && !this.#options.allowMessageContentIntent) {
      socket.close(CloseCode.DisallowedIntents, 'Disallowed intent(s).');
      return null;
    }
    const session: Session = {
      id: randomBytes(16).toString('hex'),
      intents: identify.data.intents,
      shard,
      seq: 0,
      sent: [],
      socket,
    };
    this.#sessions.set(session.id, session);
    this.#options.logger.debug({ sessionId: session.id, intents: session.intents, shard }, 'gateway: identified');
    const { ready, afterReady } = this.#options.onIdentify(session);
    this.#send(session, 'READY', { ...ready, session_id: session.id, resume_gateway_url: this.#options.resumeUrl });
    for (const dispatch of afterReady) this.#send(session, dispatch.t, dispatch.d);
    return session;
  }

  #resume(socket: WebSocket, current: Session | null, d: unknown): Session | null {
    const resume = resumeSchema.safeParse(d);
    if (current || !resume.success) {
      socket.close(current ? CloseCode.AlreadyAuthenticated : CloseCode.DecodeError);
      return current;
    }
    if (resume.data.token !== this.#options.botToken) {
      socket.close(CloseCode.AuthenticationFailed, 'Authentication failed.');
      return null;
    }
    const session = this.#sessions.get(resume.data.session_id);
    if (!session) {
      this.#sendFrame(socket, { op: Op.InvalidSession, d: false, s: null, t: null });
      return null;
    }
    session.socket?.close(CloseCode.UnknownError);
    session.socket = socket;
    const after = resume.data.seq ?? 0;
    const missed = session.sent.filter((frame) => frame.s > after);
    this.#options.logger.debug({ sessionId: session.id, replayed: missed.length }, 'gateway: resumed');
    for (const frame of missed) socket.send(frame.text);
    this.#send(session, 'RESUMED', { _trace: ['fake-gateway'] });
    return session;
  }

  #send(session: Session, t: string, d: Json): void {
    session.seq += 1;
    const text = JSON.stringify({ op: Op.Dispatch, t, s: session.seq, d });
    session.sent.push({ s: session.seq, text });
    if (session.sent.length > REPLAY_LIMIT) session.sent.shift();
    const socket = session.socket;
    if (socket && socket.readyState === socket.OPEN) socket.send(text);
  }

  #sendFrame(socket: WebSocket, frame: Json): void {
    socket.send(JSON.stringify(frame));
  }
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
