import type { AspectRatio } from '../genai/types.js';
import type { ResolvedSettings } from './resolve-settings.js';

/**
 * The settings a job was accepted under, carried in the job: any worker runs
 * it the same way, and a change made while it waits does not reach it.
 */
export interface JobSettings {
  chatModel: string;
  imageModel: string;
  /** Undefined: the built-in system prompt. */
  systemPrompt?: string | undefined;
  /** `/imagine`'s (and `generate_image`'s) ratio when none is asked for; undefined: the model's own. */
  aspectRatio?: AspectRatio | undefined;
  /** Images per `/imagine`, Re-roll and `generate_image` call without a count. */
  images: number;
  /** The workspace's daily image budget when the job was accepted: its tool calls reserve within it. */
  budgetImagesPerDay?: number | undefined;
}

export function jobSettingsOf(resolved: ResolvedSettings): JobSettings {
  const { values } = resolved;
  return {
    chatModel: values.chat_model,
    imageModel: values.image_model,
    systemPrompt: values.system_prompt,
    aspectRatio: values.aspect_ratio,
    images: values.images,
    budgetImagesPerDay: values.budget_images_per_day,
  };
}
