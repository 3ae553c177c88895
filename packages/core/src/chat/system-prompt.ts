import { copy } from '../copy/copy.js';
import type { Platform } from '../surface/platform.js';

export interface SystemPromptSources {
  /** The place's `system_prompt` (else CHAT_SYSTEM_PROMPT), when there is one. */
  configured: string | undefined;
  /** Where the conversation happens. */
  platform: Platform;
  /** The wall-clock time of the request: the built-in prompt names its date (UTC). */
  now: Date;
  /** Whether the request offers the image tools: the built-in prompt says what they do, or where to go instead. */
  tools: boolean;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** `Saturday, 2027-03-06 (UTC)`: spelled out here, so it does not change with the runtime's locale data. */
function today(now: Date): string {
  return `${WEEKDAYS[now.getUTCDay()]}, ${now.toISOString().slice(0, 10)} (UTC)`;
}

/**
 * The effective system prompt of a conversation: `configured` when there is one, else the
 * built-in one (who the bot is, on which platform, today's date, what it can do). A job's worker
 * gives the `system_prompt` its job was accepted under (channel, else workspace, else
 * CHAT_SYSTEM_PROMPT) as `configured`, in place of CHAT_SYSTEM_PROMPT.
 */
export function systemPromptFor(sources: SystemPromptSources): string {
  return sources.configured ?? copy.builtInSystemPrompt(sources.platform, today(sources.now), sources.tools);
}
