import type { ChatDeps } from '../chat/deps.js';
import type { ChatLogger, ChatModel, ImageModel } from '../surface/ports.js';
import type { ChatSurface } from '../surface/surface.js';
import type { BotRuntime } from './bot-runtime.js';

/** The models a bot runs its use cases on: one client for both operations (a GenAiClient), and the model ids. */
export interface BotModels {
  client: ImageModel & ChatModel;
  chatModel: string;
  imageModel: string;
}

/**
 * The use cases' dependencies on one runtime (its per-channel budget and its
 * scheduler), written once for every bot: only the surface and the logger
 * change from one invocation to the next.
 */
export function runtimeDeps(
  runtime: BotRuntime,
  models: BotModels,
  options: { maxReplyChars?: number | undefined } = {},
): (surface: ChatSurface, logger: ChatLogger) => ChatDeps {
  const config = {
    imageModel: models.imageModel,
    chatModel: models.chatModel,
    ...(options.maxReplyChars === undefined ? {} : { maxReplyChars: options.maxReplyChars }),
  };
  return (surface, logger) => ({
    surface,
    images: models.client,
    chat: models.client,
    config,
    logger,
    channels: runtime.channels,
    scheduler: runtime.scheduler,
    notices: runtime.notices,
  });
}
