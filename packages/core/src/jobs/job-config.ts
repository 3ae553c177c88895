import type { ChatConfig } from '../chat/deps.js';
import type { ChatJob } from './chat-job.js';

/**
 * What a job runs with: the settings it was accepted under (its place's models, system prompt,
 * ratio and count), or, for a job recorded without them, the operator's.
 */
export function configOf(job: ChatJob, base: ChatConfig): ChatConfig {
  const { settings } = job;
  if (settings === undefined) return base;
  return {
    ...base,
    chatModel: settings.chatModel,
    imageModel: settings.imageModel,
    // The settings resolved CHAT_SYSTEM_PROMPT already: none here is the built-in prompt.
    system: settings.systemPrompt,
    images: settings.images,
    aspectRatio: settings.aspectRatio,
  };
}
