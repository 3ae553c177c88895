import { copy } from '@genbot/core/copy';
import type { ChatTarget } from '@genbot/core/surface';
import type { webApi } from '@slack/bolt';
import { plainTitle } from './plain-title.js';
import { slackCall } from './slack-errors.js';
import { SlackSurface, type SlackSurfaceOptions } from './surface.js';

/**
 * The Slack surface for the app's DMs, where each conversation is an AI-app
 * thread (the agent view's, or the assistant view's): while the bot works
 * on a message and has said nothing yet, the thread's assistant status says
 * what it does (`assistant.threads.setStatus`: "is thinking…", or the tool's
 * activity, "🎨 Drawing …"), in place of a placeholder message. The agent
 * view shows the loading messages instead of the status: the same words.
 * Slack clears the status when the bot next posts in the thread, or after two
 * minutes (core renews it well within those).
 */
export class SlackDmSurface extends SlackSurface {
  readonly progressSaysActivity = true;
  readonly #client: webApi.WebClient;

  constructor(options: SlackSurfaceOptions) {
    super(options);
    this.#client = options.client;
  }

  /**
   * Awaited whatever the signal says: a status landing after the reply's
   * first message would stay up under it, since only a later post clears it.
   */
  async showProgress(target: ChatTarget, options: { activity?: string | undefined } = {}): Promise<void> {
    const threadTs = target.threadId;
    if (threadTs === undefined) return;
    const activity = options.activity === undefined ? undefined : plainTitle(options.activity);
    await slackCall('assistant.threads.setStatus', () =>
      this.#client.assistant.threads.setStatus({
        channel_id: target.channelId,
        thread_ts: threadTs,
        status: activity ?? copy.thinkingStatus,
        loading_messages: [activity ?? copy.thinkingLoading],
      }),
    );
  }
}
