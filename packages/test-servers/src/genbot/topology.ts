import { REDIS_APPEND_ONLY_ARGS } from '../redis.js';

/**
 * The scaled-out deployment, described once: compose.yaml runs it in containers, and the
 * scale-out tests start the same processes from this description on loopback (Debian's
 * redis-server, PostgreSQL and nginx through ./engines.ts, plus `node` processes).
 * test/compose checks that compose.yaml and the Dockerfile say what this module says.
 */

/** How every genbot process starts, in the image (its ENTRYPOINT) and in the tests (from the repository root). */
export const GENBOT_ENTRY = ['node', 'apps/genbot/bin/genbot.js'] as const;

/** The containers' health check: exits 0 when the process's `/readyz` on HEALTH_PORT answers 200. */
export const READINESS_PROBE = ['node', 'deploy/readyz.mjs'] as const;

/**
 * The longest a stopping process takes: the launcher's drain (DRAIN_MS, 20 s) and the
 * margin for the aborted jobs' last words and closing (STOP_MARGIN_MS, 10 s), after which
 * it exits whatever hangs (apps/genbot/src/launcher/shutdown.ts). A container's stop grace
 * period must be longer, or the platform kills it mid-reply.
 */
export const STOP_LIMIT_MS = 30_000;

/** Inside containers every process serves health here; the tests give each process a free port. */
export const CONTAINER_HEALTH_PORT = 9090;
/** The Slack replicas' HTTP port inside containers, where the balancer reaches them. */
export const CONTAINER_SLACK_PORT = 3000;

export type Role = 'slack' | 'discord' | 'worker';

export interface TopologyProcess {
  /** The compose service name, and the process's name in tests. */
  readonly name: string;
  readonly role: Role;
  /** The CLI command after GENBOT_ENTRY: `slack`, `discord`, `worker`. */
  readonly args: readonly string[];
  /** Settings that are part of the topology, the same wherever it runs. */
  readonly fixed: Readonly<Record<string, string>>;
  /** Settings whose values depend on where it runs: addresses, ports, secrets. */
  readonly provided: readonly ProvidedName[];
}

export type ProvidedName =
  | 'REDIS_URL'
  | 'DATABASE_URL'
  | 'HEALTH_PORT'
  | 'LOG_LEVEL'
  | 'GENAI_BASE_URL'
  | 'GENAI_API_KEY'
  | 'SLACK_BOT_TOKEN'
  | 'SLACK_SIGNING_SECRET'
  | 'SLACK_PORT'
  | 'DISCORD_TOKEN'
  | 'DISCORD_APPLICATION_ID';

const COMMON: readonly ProvidedName[] = [
  'REDIS_URL',
  'DATABASE_URL',
  'HEALTH_PORT',
  'LOG_LEVEL',
  'GENAI_BASE_URL',
  'GENAI_API_KEY',
];
const SLACK: readonly ProvidedName[] = ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET'];
const DISCORD: readonly ProvidedName[] = ['DISCORD_TOKEN', 'DISCORD_APPLICATION_ID'];

const slackReplica = (name: string): TopologyProcess => ({
  name,
  role: 'slack',
  args: ['slack'],
  fixed: {},
  provided: [...COMMON, ...SLACK, 'SLACK_PORT'],
});

const discordShard = (id: number, count: number): TopologyProcess => ({
  name: `discord-${id}`,
  role: 'discord',
  args: ['discord'],
  fixed: { DISCORD_SHARD_COUNT: String(count), DISCORD_SHARD_IDS: String(id) },
  provided: [...COMMON, ...DISCORD],
});

/**
 * Workers answer on both platforms through their APIs (no gateway), so they hold both tokens. More than
 * the topology's two are started the same way (the scale bench runs up to four).
 */
export const workerProcess = (name: string): TopologyProcess => ({
  name,
  role: 'worker',
  args: ['worker'],
  fixed: {},
  provided: [...COMMON, ...SLACK, ...DISCORD],
});

/** Two Slack replicas behind the balancer, two Discord shard processes, two workers. */
export const PROCESSES: readonly TopologyProcess[] = [
  slackReplica('slack-1'),
  slackReplica('slack-2'),
  discordShard(0, 2),
  discordShard(1, 2),
  workerProcess('worker-1'),
  workerProcess('worker-2'),
];

/**
 * Redis's command in compose.yaml: with its append-only file (kept in the volume at
 * REDIS_DATA), so the queued jobs survive a restart of Redis; the scale-out tests start
 * redis-server with the same flags.
 */
export const REDIS_COMMAND = ['redis-server', ...REDIS_APPEND_ONLY_ARGS] as const;
/** Where the Redis image keeps its files: a volume, so the append-only file outlives the container. */
export const REDIS_DATA = '/data';

/** The engines the processes share, by compose service name. */
export const INFRASTRUCTURE = {
  redis: 'redis',
  postgres: 'postgres',
  /** nginx in front of the Slack replicas: Slack's Request URL points at it. */
  balancer: 'nginx',
} as const;

/** The processes the balancer spreads Slack's requests over. */
export const BALANCED: readonly TopologyProcess[] = PROCESSES.filter((process) => process.role === 'slack');

/** The topology's process called `name`. */
export function processNamed(name: string): TopologyProcess {
  const found = PROCESSES.find((process) => process.name === name);
  if (found === undefined) throw new Error(`no process ${name} in the topology`);
  return found;
}

/** Where one run of the topology finds what `provided` names. */
export interface Endpoints {
  readonly redisUrl: string;
  readonly databaseUrl: string;
  readonly healthPort: number;
  /** Slack replicas only: the port the balancer reaches this one on. */
  readonly slackPort?: number;
  readonly logLevel?: string;
  readonly genai: { readonly baseUrl: string; readonly apiKey: string };
  /** `apiUrl` points the process at the fake instead of slack.com. */
  readonly slack: { readonly botToken: string; readonly signingSecret: string; readonly apiUrl?: string };
  readonly discord: { readonly token: string; readonly applicationId: string; readonly apiUrl?: string };
}

/** The environment of one process of the topology, as a test starts it: exactly its names, and the fakes' URLs. */
export function environmentOf(process: TopologyProcess, endpoints: Endpoints): Record<string, string> {
  const values: Record<ProvidedName, string | undefined> = {
    REDIS_URL: endpoints.redisUrl,
    DATABASE_URL: endpoints.databaseUrl,
    HEALTH_PORT: String(endpoints.healthPort),
    LOG_LEVEL: endpoints.logLevel ?? 'warn',
    GENAI_BASE_URL: endpoints.genai.baseUrl,
    GENAI_API_KEY: endpoints.genai.apiKey,
    SLACK_BOT_TOKEN: endpoints.slack.botToken,
    SLACK_SIGNING_SECRET: endpoints.slack.signingSecret,
    SLACK_PORT: endpoints.slackPort === undefined ? undefined : String(endpoints.slackPort),
    DISCORD_TOKEN: endpoints.discord.token,
    DISCORD_APPLICATION_ID: endpoints.discord.applicationId,
  };
  const env: Record<string, string> = { ...process.fixed };
  for (const name of process.provided) {
    const value = values[name];
    if (value === undefined) throw new Error(`${process.name} needs ${name}: give it in the endpoints`);
    env[name] = value;
  }
  const usesSlack = process.provided.includes('SLACK_BOT_TOKEN');
  const usesDiscord = process.provided.includes('DISCORD_TOKEN');
  if (usesSlack && endpoints.slack.apiUrl !== undefined) env.SLACK_API_URL = endpoints.slack.apiUrl;
  if (usesDiscord && endpoints.discord.apiUrl !== undefined) env.DISCORD_API_URL = endpoints.discord.apiUrl;
  return env;
}

/** Every name a process of the topology is configured with in compose.yaml. */
export function environmentNames(process: TopologyProcess): string[] {
  return [...Object.keys(process.fixed), ...process.provided].sort();
}
