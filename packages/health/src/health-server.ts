import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { type ReadinessCheck, ReadinessChecks } from './readiness.js';

export interface HealthServerOptions {
  /** HEALTH_PORT; 0 picks a free one (tests). */
  port: number;
  /** Default: every interface, so the container's health check and Prometheus both reach it. */
  host?: string;
  /** What `/metrics` exposes (PromMetrics' registry). */
  registry: Registry;
  checks?: readonly ReadinessCheck[];
  /** How long one readiness check may take before it counts as failed. */
  checkTimeoutMs?: number;
}

export interface HealthServer {
  readonly port: number;
  /** `http://HOST:PORT` */
  readonly url: string;
  addCheck(check: ReadinessCheck): void;
  /** `/readyz` answers 503 from now on; call it first on SIGTERM, before the drain. */
  beginDrain(): void;
  close(): Promise<void>;
}

const TEXT = 'text/plain; charset=utf-8';

/** Serves `/healthz`, `/readyz` and `/metrics` as CONTRACT.md ("Operation") says. */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const readiness = new ReadinessChecks(
    options.checkTimeoutMs === undefined ? {} : { timeoutMs: options.checkTimeoutMs },
  );
  for (const check of options.checks ?? []) readiness.add(check);

  const server = createServer((request, response) => {
    route(request, response, readiness, options.registry).catch((error: unknown) => {
      if (!response.headersSent) reply(response, 500, `${error instanceof Error ? error.message : String(error)}\n`);
      else response.destroy();
    });
  });
  // Probes are short: do not let one idle keep-alive socket hold close() up.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':')
    ? `[${address === '::' ? '::1' : address}]`
    : address === '0.0.0.0'
      ? '127.0.0.1'
      : address;

  return {
    port,
    url: `http://${host}:${port}`,
    addCheck: (check) => readiness.add(check),
    beginDrain: () => readiness.beginDrain(),
    async close() {
      server.closeIdleConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

async function route(
  request: IncomingMessage,
  response: ServerResponse,
  readiness: ReadinessChecks,
  registry: Registry,
): Promise<void> {
  const path = new URL(request.url ?? '/', 'http://health').pathname;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    reply(response, 405, 'method not allowed\n');
    return;
  }
  switch (path) {
    case '/healthz':
      reply(response, 200, 'ok\n');
      return;
    case '/readyz': {
      const state = await readiness.evaluate();
      if (state.ready) reply(response, 200, 'ready\n');
      else reply(response, 503, `${state.reasons.join('\n')}\n`);
      return;
    }
    case '/metrics':
      reply(response, 200, await registry.metrics(), registry.contentType);
      return;
    default:
      reply(response, 404, 'not found: /healthz, /readyz and /metrics are served here\n');
  }
}

function reply(response: ServerResponse, status: number, body: string, contentType = TEXT): void {
  response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}
