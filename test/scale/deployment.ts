import type { Store } from '@genbot/core/store';
import { type Emulator, startEmulator } from '@genbot/emulator';
import { type DiscordFake, type SlackFake, startDiscordFake, startSlackFake } from '@genbot/fakes';
import { openStore } from '@genbot/store';
import { type Engines, type GenbotProcess, outsideOf, processNamed, startEngines } from '@genbot/test-servers/genbot';

/**
 * The topology on its engines against the Slack and Discord fakes and the emulator: what the
 * scale tests on Slack share. Its processes are started by name, and closed with it.
 */
export interface Deployment {
  readonly engines: Engines;
  readonly slack: SlackFake;
  /** The workers hold the Discord token too, as in compose.yaml. */
  readonly discord: DiscordFake;
  readonly emulator: Emulator;
  /** The store every process shares, read as an operator would. */
  readonly store: Store;
  /** The processes started and not yet stopped, by name: a test that stops one deletes it. */
  readonly running: Map<string, GenbotProcess>;
  /** Starts the topology's process `name` and waits until it is up; a worker gets `workerEnv` too. */
  start(name: string, env?: Record<string, string>): Promise<GenbotProcess>;
  /** Stops what is still running, then the fakes, the emulator and the engines. */
  close(): Promise<void>;
}

export interface DeploymentOptions {
  /** Told apart in tokens and keys, so a leaked one names its test. */
  name: string;
  /** Settings every worker gets on top of its compose environment (a short JOB_LOCK_MS). */
  workerEnv?: Record<string, string>;
}

export async function startDeployment(options: DeploymentOptions): Promise<Deployment> {
  const apiKey = `${options.name}-genai-key`;
  const engines = await startEngines();
  const slack = await startSlackFake({ botToken: `xoxb-${options.name}`, signingSecret: `${options.name}-secret` });
  const discord = await startDiscordFake({ botToken: `${options.name}-discord-token` });
  const emulator = await startEmulator({ apiKey });
  const store = await openStore(engines.postgres.url);
  const outside = outsideOf({ baseUrl: emulator.url, apiKey }, slack, discord);
  const running = new Map<string, GenbotProcess>();
  return {
    engines,
    slack,
    discord,
    emulator,
    store,
    running,
    async start(name, env = {}) {
      const process = processNamed(name);
      const genbot = await engines.start(process, outside, {
        env: { ...(process.role === 'worker' ? options.workerEnv : {}), ...env },
      });
      running.set(name, genbot);
      return genbot;
    },
    async close() {
      await Promise.allSettled([...running.values()].map((genbot) => genbot.stop(5_000)));
      running.clear();
      await store.close();
      await Promise.allSettled([emulator.close(), slack.close(), discord.close()]);
      await engines.close();
    },
  };
}
