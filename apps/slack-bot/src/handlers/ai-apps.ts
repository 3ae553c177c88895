import type { Metrics } from '@genbot/core/metrics';
import type { App } from '@slack/bolt';
import type { WorkspaceRights } from '../settings-rights.js';
import { registerAppHome } from './app-home.js';
import { registerAssistantThreads } from './assistant-thread.js';
import type { ListenerContext, SlackJobs } from './context.js';
import { registerReplyFeedback } from './reply-feedback.js';

/**
 * Slack's AI-app surfaces around the app's DMs: the App Home (the agent
 * view's Messages tab and the Home tab), the assistant view's threads, and
 * the feedback buttons under streamed replies. The DM turns themselves are
 * the DM path's; it names each conversation with `titleConversation`.
 */
export function registerAiApps(
  app: App,
  context: ListenerContext,
  options: { jobs: SlackJobs; tools: boolean; metrics: Metrics; rights: WorkspaceRights },
): void {
  registerAppHome(app, context, { usage: options.jobs.usage, tools: options.tools, rights: options.rights });
  registerAssistantThreads(app, context, { tools: options.tools });
  registerReplyFeedback(app, context, options.metrics);
}
