import type { AspectRatio } from '../genai/types.js';
import type { JobScheduler } from '../scheduling/job-scheduler.js';
import type { ChannelBudget } from '../rendering/channel-budget.js';
import type { RefusalNotices } from './refusal-notices.js';
import type { Clock } from '../time/clock.js';
import type { ChatLogger, ChatModel, ImageModel } from '../surface/ports.js';
import type { ChatSurface, UploadFile } from '../surface/surface.js';
import type { ToolJob } from './tools/tool-job.js';

export interface ChatConfig {
  /** IMAGE_MODEL: generation and editing. */
  imageModel: string;
  /** CHAT_MODEL: conversations. */
  chatModel: string;
  /** CHAT_MAX_TOKENS: max_tokens of a reply (default 4,096); enforced locally too, roughly, should the service run past it. */
  maxTokens?: number;
  /** Longest reply shown, in characters (REPLY_MAX_CHARS, default 40,000); past it, a short note ends it. */
  maxReplyChars?: number;
  /** CHAT_SYSTEM_PROMPT: the deployment's system prompt of conversations; unset, a built-in one (`systemPromptFor`). */
  system?: string | undefined;
  /** The per-deployment key of `metadata.user_id`'s hash (`opaqueUserId`); unset, a built-in one. */
  userIdKey?: string | undefined;
  /** Estimated tokens of thread history sent with a conversation (default 8,000). */
  historyTokenBudget?: number;
  /** CHAT_TOOLS: a conversation offers generate_image and edit_image (default true). */
  tools?: boolean | undefined;
  /** The place's `images`: how many an `/imagine`, a Re-roll or a `generate_image` without a count makes (default 1). */
  images?: number | undefined;
  /** The place's `aspect_ratio`: `/imagine`'s and `generate_image`'s when none is asked for (default: the model's own). */
  aspectRatio?: AspectRatio | undefined;
}

/** What every use case runs with; the surface is the invocation's, the rest is shared. */
export interface ChatDeps {
  surface: ChatSurface;
  /** GenAiClient fits both. */
  images: ImageModel;
  chat: ChatModel;
  config: ChatConfig;
  logger: ChatLogger;
  clock?: Clock;
  /** The wall-clock time (a conversation's system prompt names today's date); default the system's. */
  now?: (() => Date) | undefined;
  /** The process's one per-channel budget: every post and edit waits its turn there. */
  channels: ChannelBudget;
  /**
   * Shared admission of model calls (one per process). Used only for inputs
   * that carry a `userId`; without either, calls run at once.
   */
  scheduler?: JobScheduler | undefined;
  /** The process's memory of refusals said; without it, every refusal is said. */
  notices?: RefusalNotices | undefined;
  /**
   * Where a job's images are versions (a job's worker): records the files
   * about to be uploaded and returns their version numbers, for a result's
   * text that names them; undefined for an upload a run before already made.
   */
  numberImages?: ((files: readonly UploadFile[]) => Promise<readonly number[] | undefined>) | undefined;
  /** Where a conversation's tool calls run in a job: their versions, quotas and recorded steps. */
  toolJob?: ToolJob | undefined;
}

/**
 * How a use case ended: done, refused before anything was sent (bad input,
 * or the scheduler's limits), or failed (the user was told).
 */
export type ChatOutcome = 'done' | 'rejected' | 'failed';
