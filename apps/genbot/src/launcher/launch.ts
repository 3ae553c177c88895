import type { DiscordConfig, DiscordRegistrationConfig } from '@genbot/discord-bot';
import type { SlackConfig, SlackStreaming, SlackWebConfig } from '@genbot/slack-bot';
import type { SharedState, WorkerTuning } from './shared-state.js';

/** Where a launch reads its environment and writes its summary and errors (a test gives its own). */
export interface LauncherIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** What the launcher runs, decided from the command and the environment. */
export type LaunchPlan =
  | { kind: 'bots'; slack: SlackConfig | undefined; discord: DiscordConfig | undefined }
  | { kind: 'playground'; port: number; slackStreaming: SlackStreaming }
  | { kind: 'register'; discord: DiscordRegistrationConfig; guildId: string | undefined }
  /** `genbot worker`: runs the queued jobs of the platforms whose tokens are set, over their APIs. */
  | {
      kind: 'worker';
      slack: SlackWebConfig | undefined;
      discord: DiscordConfig | undefined;
      shared: SharedState;
      tuning: WorkerTuning;
    };
