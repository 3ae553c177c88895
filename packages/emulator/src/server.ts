import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import type { Logger } from 'pino';
import { anthropicErrorBody, googleError, newRequestId } from './errors.js';
import type { EmulatorContext, Exchange } from './exchange.js';
import { FaultCounter } from './faults.js';
import { flattenHeaders, parseJson, readBody, sendJson } from './http-io.js';
import { handleGenerateContent } from './generate-content.js';
import { handleMessages } from './messages.js';

export interface EmulatorOptions {
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** E.g. '/proxy': then only '/proxy/v1beta/...' and '/proxy/v1/messages' are served. */
  pathPrefix?: string;
  /** When set, keys must match it; when unset any non-empty key is accepted. */
  apiKey?: string;
  /** Accept any of the three credential styles for any operation (the official SDKs send their own). */
  relaxCredentials?: boolean;
  /** Pause between SSE deltas, default 15. */
  streamDelayMs?: number;
  /**
   * Keep every request in `requests` (default true, for tests). A long-running
   * emulator (the CLI's, the playground's) turns it off: edit requests carry
   * whole images, and the log would only grow.
   */
  recordRequests?: boolean;
  logger?: Logger;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** Bytes the answer put on the wire (head included), once it is over: how much of a long body was read. */
  responseBytes?: number;
}

export interface Emulator {
  /** Base URL including the path prefix, without a trailing slash. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

const GENERATE_CONTENT = /^\/v1beta\/models\/([^/]+):generateContent$/;

function normalisePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `/${trimmed}`;
}

function notFound(res: ServerResponse, path: string): void {
  if (path.startsWith('/v1/')) {
    const requestId = newRequestId();
    sendJson(res, 404, anthropicErrorBody('not_found_error', 'Not found', requestId), { 'request-id': requestId });
    return;
  }
  const error = googleError(404, 'NOT_FOUND', `The requested URL ${path} was not found on this server.`);
  sendJson(res, error.httpStatus, error.body);
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? '127.0.0.1';
  const prefix = normalisePrefix(options.pathPrefix);
  const requests: RecordedRequest[] = [];
  const record = options.recordRequests ?? true;
  const context: EmulatorContext = {
    apiKey: options.apiKey,
    relaxCredentials: options.relaxCredentials ?? false,
    streamDelayMs: options.streamDelayMs ?? 15,
    faults: new FaultCounter(),
    logger: options.logger ?? pino({ level: 'silent' }),
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const controller = new AbortController();
    res.once('close', () => controller.abort());
    const rawBody = await readBody(req);
    const text = rawBody.toString('utf8');
    const json = parseJson(text);
    const headers = flattenHeaders(req.headers);
    const method = req.method ?? 'GET';
    const fullPath = req.url ?? '/';
    if (record) {
      const entry: RecordedRequest = {
        method,
        path: fullPath,
        headers,
        body: json.ok ? json.value : text === '' ? undefined : text,
      };
      requests.push(entry);
      // The socket may have carried earlier answers (keep-alive): count from here.
      const before = req.socket.bytesWritten;
      res.once('close', () => {
        entry.responseBytes = req.socket.bytesWritten - before;
      });
    }

    const pathname = fullPath.split('?', 1)[0] ?? fullPath;
    const path = pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : undefined;
    res.once('finish', () =>
      context.logger.debug({ method, path: pathname, status: res.statusCode }, 'emulator request'),
    );
    if (path === undefined || method !== 'POST') return notFound(res, path ?? pathname);
    const exchange: Exchange = { req, res, path, headers, rawBody, json, signal: controller.signal };
    if (path === '/v1/messages') return handleMessages(context, exchange);
    const model = GENERATE_CONTENT.exec(path)?.[1];
    if (model !== undefined) return handleGenerateContent(context, exchange, model);
    notFound(res, path);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      context.logger.error({ err: error }, 'emulator failed to answer');
      if (res.headersSent) {
        res.destroy();
      } else {
        const failure = googleError(500, 'INTERNAL', 'The emulator failed to answer this request.');
        sendJson(res, failure.httpStatus, failure.body);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}${prefix}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
