import type { JobScheduler } from '../jobs/job-scheduler.js';
import type { Clock } from './clock.js';
import type { ChatLogger, ChatModel, ImageModel } from './ports.js';
import type { ChatSurface } from './surface.js';

export interface ChatConfig {
  /** IMAGE_MODEL: generation and editing. */
  imageModel: string;
  /** CHAT_MODEL: conversations. */
  chatModel: string;
  /** max_tokens of a reply (default 2,048). */
  maxTokens?: number;
  /** System prompt of conversations. */
  system?: string;
  /** Estimated tokens of thread history sent with a conversation (default 8,000). */
  historyTokenBudget?: number;
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
  /**
   * Shared admission of model calls (one per process). Used only for inputs
   * that carry a `userId`; without either, calls run at once.
   */
  scheduler?: JobScheduler | undefined;
}

/**
 * How a use case ended: done, refused before anything was sent (bad input,
 * or the scheduler's limits), or failed (the user was told).
 */
export type ChatOutcome = 'done' | 'rejected' | 'failed';
