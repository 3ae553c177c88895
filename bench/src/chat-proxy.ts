/**
 * A recording proxy in front of the emulator, in the process that also runs
 * the fake platform, so "when the service sent a delta" and "when the user
 * saw text" are read on one clock. It passes every byte through unchanged.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One streamed reply as the service sent it. */
export interface StreamRecord {
  /** The `#tag` of the prompt (see `taggedPrompt`) that asked for it. */
  tag: string;
  firstDeltaAt: number;
  lastDeltaAt: number;
  text: string;
}

/** One request passed through, stamped on the fakes' clock (Date.now, epoch ms). */
export interface ProxyExchange {
  kind: 'messages' | 'image';
  /** The `#tag` of the prompt it carries, if any (the last one: the mention being answered). */
  tag: string | undefined;
  /** The whole request received from the bot. */
  receivedAt: number;
  /** The service's answer passed on to its last byte; undefined until then. */
  endedAt?: number;
  /** A messages stream's `stop_reason` (`end_turn`, `tool_use`...), once its `message_delta` passed. */
  stopReason?: string;
  /** A messages request that answers tool calls (it carries `tool_result` blocks). */
  toolResults: boolean;
}

export interface ChatProxy {
  url: string;
  /** By tag; a retried request starts its record over. */
  streams: Map<string, StreamRecord>;
  /** Start times of generate-content responses (epoch ms). */
  imageResponsesAt: number[];
  /** Every messages and generate-content request, in the order they arrived. */
  exchanges: ProxyExchange[];
  close(): Promise<void>;
}

const TAG = /#(m\d+)\b/g;

/** A prompt that the proxy can tie to its reply: `#m<index>` plus emulator directives. */
export function taggedPrompt(index: number, directives: string): string {
  return `please answer #m${index} ${directives}`;
}

/** The last tag in the request: the mention being answered (history comes first). */
function tagOf(body: string): string | undefined {
  return [...body.matchAll(TAG)].at(-1)?.[1];
}

/** Reads `content_block_delta` text and the `message_delta`'s stop reason out of SSE bytes as they pass. */
function sseReader(on: { delta(text: string): void; stop(reason: string): void }): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('utf8');
    const events = pending.split('\n\n');
    pending = events.pop() ?? '';
    for (const event of events) {
      const data = event.split('\n').find((line) => line.startsWith('data: '));
      const isDelta = event.includes('content_block_delta');
      if (data === undefined || (!isDelta && !event.includes('message_delta'))) continue;
      const parsed = JSON.parse(data.slice('data: '.length)) as { delta?: { text?: string; stop_reason?: string } };
      if (isDelta && parsed.delta?.text !== undefined) on.delta(parsed.delta.text);
      if (!isDelta && parsed.delta?.stop_reason !== undefined) on.stop(parsed.delta.stop_reason);
    }
  };
}

export async function startChatProxy(emulatorUrl: string): Promise<ChatProxy> {
  const upstream = new URL(emulatorUrl);
  const streams = new Map<string, StreamRecord>();
  const imageResponsesAt: number[] = [];
  const exchanges: ProxyExchange[] = [];

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, receivedAt: number): void => {
    const isMessages = req.url?.endsWith('/v1/messages') === true;
    const isImage = req.url?.includes(':generateContent') === true;
    const text = isMessages || isImage ? body.toString('utf8') : undefined;
    const exchange: ProxyExchange | undefined =
      text === undefined
        ? undefined
        : {
            kind: isMessages ? 'messages' : 'image',
            tag: tagOf(text),
            receivedAt,
            toolResults: isMessages && text.includes('"tool_result"'),
          };
    if (exchange !== undefined) exchanges.push(exchange);
    const tag = isMessages ? exchange?.tag : undefined;
    if (tag !== undefined) streams.delete(tag);
    const outgoing = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (isImage) imageResponsesAt.push(Date.now());
        const read = !isMessages
          ? undefined
          : sseReader({
              delta: (text) => {
                if (tag === undefined) return;
                // Date.now, as the fakes stamp their records with it.
                const now = Date.now();
                const record = streams.get(tag);
                if (record === undefined) streams.set(tag, { tag, firstDeltaAt: now, lastDeltaAt: now, text });
                else Object.assign(record, { lastDeltaAt: now, text: record.text + text });
              },
              stop: (reason) => {
                if (exchange !== undefined) exchange.stopReason = reason;
              },
            });
        answer.on('data', (chunk: Buffer) => {
          // Recorded before it is passed on: the moment the service's delta reaches the bot's side.
          read?.(chunk);
          res.write(chunk);
        });
        answer.on('end', () => {
          // Stamped as the last byte is passed on: from here the bot has the whole answer.
          if (exchange !== undefined) exchange.endedAt = Date.now();
          res.end();
        });
        answer.on('error', () => res.destroy());
      },
    );
    outgoing.on('error', () => res.destroy());
    outgoing.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), Date.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    streams,
    imageResponsesAt,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
