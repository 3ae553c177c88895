import {
  findNginx,
  findPostgresBin,
  findRedisServer,
  freeLoopbackPort,
  installedOrSkipped,
  NGINX_INSTALL_HINT,
  type NginxServer,
  POSTGRES_INSTALL_HINT,
  type PostgresServer,
  REDIS_INSTALL_HINT,
  type RedisServer,
  startNginx,
  startPostgres,
  startRedis,
} from '@genbot/test-servers';
import { BALANCED, type Endpoints, type GenbotProcess, PROCESSES } from './topology.js';

/** Whether the scale-out tests run: Redis, PostgreSQL and nginx from Debian (under CI a missing one fails). */
export function enginesInstalled(): boolean {
  const redis = installedOrSkipped({
    name: 'Redis',
    found: findRedisServer() !== undefined,
    install: REDIS_INSTALL_HINT,
  });
  const postgres = installedOrSkipped({
    name: 'PostgreSQL',
    found: findPostgresBin() !== undefined,
    install: POSTGRES_INSTALL_HINT,
  });
  const nginx = installedOrSkipped({ name: 'nginx', found: findNginx() !== undefined, install: NGINX_INSTALL_HINT });
  return redis && postgres && nginx;
}

/** What a process of the topology is given that does not depend on the engines: the service and the platforms. */
export type Outside = Pick<Endpoints, 'genai' | 'slack' | 'discord' | 'logLevel'>;

/** The topology's engines on loopback, and the ports its processes will listen on. */
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
  endpointsOf(process: GenbotProcess, outside: Outside): Endpoints;
  close(): Promise<void>;
}

/**
 * Starts Redis, PostgreSQL and nginx as compose.yaml does, on free loopback ports, and
 * chooses a port for each process's health server and each Slack replica. The processes
 * themselves are the test's to start: `spawnGenbot(process.args, environmentOf(process, …))`.
 */
export async function startEngines(): Promise<Engines> {
  const slackPorts = new Map<string, number>();
  for (const process of BALANCED) slackPorts.set(process.name, await freeLoopbackPort());
  const healthPorts = new Map<string, number>();
  for (const process of PROCESSES) healthPorts.set(process.name, await freeLoopbackPort());

  const started: { close(): Promise<void> }[] = [];
  try {
    // As compose.yaml runs it (REDIS_COMMAND): queued jobs survive a restart of Redis.
    const redis = await startRedis({ persist: true });
    started.push(redis);
    const postgres = await startPostgres();
    started.push(postgres);
    const nginx = await startNginx({ upstreams: [...slackPorts.values()].map((port) => `127.0.0.1:${port}`) });
    started.push(nginx);
    return {
      redis,
      postgres,
      nginx,
      requestUrl: `${nginx.url}/slack/events`,
      healthPorts,
      slackPorts,
      endpointsOf(process, outside) {
        const healthPort = healthPorts.get(process.name);
        if (healthPort === undefined) throw new Error(`${process.name} is not a process of the topology`);
        const slackPort = slackPorts.get(process.name);
        return {
          ...outside,
          redisUrl: redis.url,
          databaseUrl: postgres.url,
          healthPort,
          ...(slackPort !== undefined && { slackPort }),
        };
      },
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
