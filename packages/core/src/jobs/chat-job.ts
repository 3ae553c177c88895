import type { MentionInput } from '../chat/handle-mention.js';
import type { ImagineInput } from '../chat/imagine.js';
import type { ChatSurface, ChatTarget, ResultAction, ThreadMessage } from '../surface/surface.js';
import type { ResultActionInput } from '../results/lineage.js';
import type { InteractionToken, JobStep, Platform } from '../store/index.js';
import type { JobSettings } from '../settings/job-settings.js';
import type { SettingsPlace } from '../settings/place-settings.js';

/**
 * Bumped when the shape of `ChatJobInput` changes; workers read, migrate or refuse older versions.
 * Still 1 with the job's settings stored beside its input: a record without them (written before
 * settings) runs on the operator's defaults, so it stays readable.
 */
export const CHAT_JOB_SCHEMA_VERSION = 1;

/**
 * The work a chat job does, as plain serialisable data: the use case's own
 * input, which names no platform object. A worker runs it with a surface it
 * builds for the job's platform from the job alone.
 */
export type ChatJobInput =
  | { kind: 'imagine'; imagine: ImagineInput & { userId: string } }
  | { kind: 'mention'; mention: MentionInput & { userId: string } }
  | { kind: 'message-edit'; edit: MessageEditInput }
  | { kind: ResultAction; action: ResultActionInput };

export type ChatJobKind = ChatJobInput['kind'];

/**
 * An edit of the image a message shows, asked for by name (Discord's **Edit
 * image** form) rather than in words to the model: it runs with CHAT_TOOLS
 * off too, and continues that image's versions.
 */
export interface MessageEditInput {
  /** Where the result goes (Discord: a reply to the message). */
  target: ChatTarget;
  instruction: string;
  /** The message whose image is edited, as it was when the form was sent. */
  source: ThreadMessage;
  userId: string;
}

/**
 * A chat job as ingress records it (the store's NewJob, with a typed input).
 * Never a bot token, signing secret or API key; a Discord interaction token
 * only until it expires, and never logged.
 */
export interface ChatJob {
  /** From the trigger: Slack `event_id` or `trigger_id` + action, Discord interaction or message id, prefixed. */
  id: string;
  platform: Platform;
  workspaceId?: string | undefined;
  channelId: string;
  threadId?: string | undefined;
  userId: string;
  input: ChatJobInput;
  /** Discord: follow-ups go through the interaction's webhook for 15 minutes; past it, plain channel messages. */
  interaction?: InteractionToken | undefined;
  /** A button press: one unfinished job per person and button (the store's active key). */
  activeKey?: string | undefined;
  /**
   * The place's settings when the job was accepted (the intake resolves them): it runs with these
   * on any worker, whatever changes while it waits. Absent: the operator's defaults (an older record).
   */
  settings?: JobSettings | undefined;
  /**
   * The channel whose settings apply, when it is not `channelId`: a Discord
   * thread is a channel of its own, and follows its parent's settings.
   * Read at intake only (the job then carries its settings), never stored.
   */
  settingsChannelId?: string | undefined;
}

/**
 * Where a job's settings come from. A DM is not a channel: a Slack DM's channel id starts with
 * `D` (its workspace's settings and budget still apply); a Discord job without a server is a DM
 * (the operator's settings apply, and all such DMs share one budget).
 */
export function settingsPlaceOf(
  job: Pick<ChatJob, 'platform' | 'workspaceId' | 'channelId' | 'settingsChannelId'>,
): SettingsPlace {
  const dm = job.platform === 'slack' ? job.channelId.startsWith('D') : job.workspaceId === undefined;
  return {
    platform: job.platform,
    workspaceId: job.workspaceId,
    channelId: job.settingsChannelId ?? job.channelId,
    dm,
  };
}

/**
 * What a worker needs from each platform app: a surface for a job, built
 * from the job's data alone (Slack: the Web API client with the bot token of
 * the process's own configuration; Discord: REST, no gateway).
 */
export interface SurfaceFactory {
  readonly platform: Platform;
  /**
   * `steps`: what earlier runs of the job recorded (a job resumed after a
   * restart, or handed to another worker), for a surface whose limits span
   * its runs (Discord: a user install's five follow-ups per interaction).
   */
  surfaceFor(job: ChatJob, steps?: readonly JobStep[]): ChatSurface;
  /**
   * The app's cancellation key for the message that started the job (its
   * deletion cancels the work), when the job has one.
   */
  cancelKey?(job: ChatJob): string | undefined;
}

/** Where a job answers: the channel (and thread) of its command, mention or button. */
export function targetOf(job: ChatJob): ChatTarget {
  switch (job.input.kind) {
    case 'imagine':
      return job.input.imagine.target;
    case 'mention':
      return job.input.mention.target;
    case 'message-edit':
      return job.input.edit.target;
    default:
      return job.input.action.target;
  }
}
