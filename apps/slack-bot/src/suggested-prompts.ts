import { copy } from '@genbot/core/copy';
import type { webApi } from '@slack/bolt';
import { slackCall } from './slack-errors.js';

/** Slack shows at most four suggested prompts. */
export const MAX_SUGGESTED_PROMPTS = 4;

/**
 * Sets the prompts a new conversation in the app's DMs suggests
 * (`assistant.threads.setSuggestedPrompts`). The agent view shows them at the
 * top of the conversation and takes no `thread_ts` (with one, Slack drops the
 * call without a word); the assistant view shows them in the thread it
 * opened. `tools`: whether a conversation can draw and edit (CHAT_TOOLS), so
 * each prompt works when it is sent.
 */
export async function suggestPrompts(
  client: webApi.WebClient,
  where: { channel: string; threadTs?: string | undefined },
  tools: boolean,
): Promise<void> {
  const prompts = copy.suggestedPrompts(tools).slice(0, MAX_SUGGESTED_PROMPTS);
  await slackCall('assistant.threads.setSuggestedPrompts', () =>
    client.assistant.threads.setSuggestedPrompts({
      channel_id: where.channel,
      title: copy.suggestedPromptsTitle,
      prompts,
      ...(where.threadTs === undefined ? {} : { thread_ts: where.threadTs }),
    }),
  );
}
