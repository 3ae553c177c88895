import { freeLoopbackPort } from '../free-port.js';
import { installedOrSkipped } from '../installed.js';
import { findNginx, NGINX_INSTALL_HINT, type NginxServer, startNginx } from '../nginx.js';
import { findPostgresBin, POSTGRES_INSTALL_HINT, type PostgresServer, startPostgres } from '../postgres.js';
import { findRedisServer, REDIS_INSTALL_HINT, type RedisServer, startRedis } from '../redis.js';
import { type GenbotProcess, spawnGenbot } from './process.js';
import { BALANCED, type Endpoints, environmentOf, PROCESSES, type Role, type TopologyProcess } from './topology.js';

const ENGINES = [
  { name: 'Redis', found: () => findRedisServer() !== undefined, install: REDIS_INSTALL_HINT },
  { name: 'PostgreSQL', found: () => findPostgresBin() !== undefined, install: POSTGRES_INSTALL_HINT },
  { name: 'nginx', found: () => findNginx() !== undefined, install: NGINX_INSTALL_HINT },
];

/** Whether the scale-out tests run: Redis, PostgreSQL and nginx from Debian (under CI a missing one fails). */
export function enginesInstalled(): boolean {
  return ENGINES.map((engine) => installedOrSkipped({ ...engine, found: engine.found() })).every(Boolean);
}

/** The engines not installed, each with how to install it (the bench leaves its rows out without them). */
export function enginesMissing(): string[] {
  return ENGINES.filter((engine) => !engine.found()).map((engine) => `${engine.name} (${engine.install})`);
}

/** What a process of the topology is given that does not depend on the engines: the service and the platforms. */
export type Outside = Pick<Endpoints, 'genai' | 'slack' | 'discord' | 'logLevel'>;

/** A Slack fake as `outsideOf` reads it (@genbot/fakes' SlackFake). */
interface SlackSide {
  readonly identity: { readonly botToken: string; readonly signingSecret: string };
  readonly apiUrl: string;
}

/** A Discord fake as `outsideOf` reads it (@genbot/fakes' DiscordFake). */
interface DiscordSide {
  readonly botToken: string;
  readonly applicationId: string;
  readonly apiUrl: string;
}

/** The model service and the platforms' fakes, as every process of the topology is pointed at them. */
export function outsideOf(genai: Outside['genai'], slack: SlackSide, discord: DiscordSide): Outside {
  return {
    genai,
    slack: { botToken: slack.identity.botToken, signingSecret: slack.identity.signingSecret, apiUrl: slack.apiUrl },
    discord: { token: discord.botToken, applicationId: discord.applicationId, apiUrl: discord.apiUrl },
  };
}

/** The line each role prints once it is up, on stdout (its start-up summary). */
const UP: Record<Role, RegExp> = {
  slack: /^Slack: HTTP mode, .* at :\d+\/slack\/events$/,
  discord: /^Discord: gateway connected as user \d+; shards \d+ of \d+;/,
  worker: /^Worker: /,
};

export interface StartOptions {
  /** Settings beyond the process's compose environment (a test's shorter JOB_LOCK_MS, a model). */
  env?: Record<string, string>;
  /** Options for node itself (`--cpu-prof`). */
  nodeArgs?: readonly string[];
  /** How long it may take to come up (default 60 s). */
  timeoutMs?: number;
}

/** The topology's engines on loopback, the ports its processes listen on, and how to start them. */
export interface Engines {
  readonly redis: RedisServer;
  readonly postgres: PostgresServer;
  /** In front of the Slack replicas' ports, whether or not they listen yet. */
  readonly nginx: NginxServer;
  /** Slack's Request URL: through nginx, as in compose.yaml. */
  readonly requestUrl: string;
  /** Each process's HEALTH_PORT, by name. */
  readonly healthPorts: ReadonlyMap<string, number>;
  /** Each Slack replica's SLACK_PORT, by name: nginx's upstreams. */
  readonly slackPorts: ReadonlyMap<string, number>;
  /** What `environmentOf(process, …)` takes for this run. */
  endpointsOf(process: TopologyProcess, outside: Outside): Endpoints;
  /**
   * Starts `process` as compose.yaml runs it (exactly its environment, the fakes' URLs from `outside`)
   * and resolves once it printed that it is up; stopping it is the caller's.
   */
  start(process: TopologyProcess, outside: Outside, options?: StartOptions): Promise<GenbotProcess>;
  /** `http://127.0.0.1:PORT` of the process's health server (/readyz, /metrics). */
  healthUrl(name: string): string;
  /** A Slack replica's own Request URL, past the balancer. */
  replicaUrl(name: string): string;
  close(): Promise<void>;
}

/**
 * Starts Redis, PostgreSQL and nginx as compose.yaml does, on free loopback ports, and
 * chooses a port for each process's health server and each Slack replica; `start` then
 * runs the processes on them.
 */
export async function startEngines(): Promise<Engines> {
  const slackPorts = new Map<string, number>();
  for (const process of BALANCED) slackPorts.set(process.name, await freeLoopbackPort());
  const healthPorts = new Map<string, number>();
  for (const process of PROCESSES) healthPorts.set(process.name, await freeLoopbackPort());
  const portOf = (ports: ReadonlyMap<string, number>, name: string): number => {
    const port = ports.get(name);
    if (port === undefined) throw new Error(`${name} is not a process of the topology`);
    return port;
  };

  const started: { close(): Promise<void> }[] = [];
  try {
    // As compose.yaml runs it (REDIS_COMMAND): queued jobs survive a restart of Redis.
    const redis = await startRedis({ persist: true });
    started.push(redis);
    const postgres = await startPostgres();
    started.push(postgres);
    const nginx = await startNginx({ upstreams: [...slackPorts.values()].map((port) => `127.0.0.1:${port}`) });
    started.push(nginx);
    const endpointsOf = (process: TopologyProcess, outside: Outside): Endpoints => {
      const slackPort = slackPorts.get(process.name);
      return {
        ...outside,
        redisUrl: redis.url,
        databaseUrl: postgres.url,
        healthPort: portOf(healthPorts, process.name),
        ...(slackPort !== undefined && { slackPort }),
      };
    };
    return {
      redis,
      postgres,
      nginx,
      requestUrl: `${nginx.url}/slack/events`,
      healthPorts,
      slackPorts,
      endpointsOf,
      async start(process, outside, options = {}) {
        // A process beyond the topology's own (another worker) gets a health port of its own.
        if (!healthPorts.has(process.name)) healthPorts.set(process.name, await freeLoopbackPort());
        const genbot = spawnGenbot(
          process.args,
          { ...environmentOf(process, endpointsOf(process, outside)), ...options.env },
          options.nodeArgs === undefined ? {} : { nodeArgs: options.nodeArgs },
        );
        try {
          await genbot.waitForLine(UP[process.role], options.timeoutMs ?? 60_000);
        } catch (error) {
          await genbot.stop(5_000);
          throw error;
        }
        return genbot;
      },
      healthUrl: (name) => `http://127.0.0.1:${portOf(healthPorts, name)}`,
      replicaUrl: (name) => `http://127.0.0.1:${portOf(slackPorts, name)}/slack/events`,
      close: () => closeAll(started),
    };
  } catch (error) {
    await closeAll(started);
    throw error;
  }
}

async function closeAll(servers: readonly { close(): Promise<void> }[]): Promise<void> {
  const results = await Promise.allSettled([...servers].reverse().map((server) => server.close()));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
