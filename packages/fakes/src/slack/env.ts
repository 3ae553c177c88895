import type { SlackAiApps } from './ai-apps.js';
import type { Interactivity } from './interactivity.js';
import type { SlackOAuth } from './oauth.js';
import type { RenderContext } from './render.js';
import type { SlackMessage, SlackWorkspace } from './workspace.js';

/** Who the fake is: the workspace, the installed app and its credentials. */
export interface SlackIdentity {
  teamId: string;
  teamName: string;
  appId: string;
  botToken: string;
  appToken: string;
  signingSecret: string;
  botUserId: string;
  botId: string;
}

/** Page sizes of conversations.replies and .history: Slack's, or 15 and 15 for apps outside the Marketplace since 2025. */
export interface HistoryPaging {
  defaultLimit: number;
  maxLimit: number;
}

/** What a Web API method handler may use. */
export interface SlackEnv {
  identity: SlackIdentity;
  workspace: SlackWorkspace;
  /** Triggers handed out and modals open. */
  interactivity: Interactivity;
  /** Suggested prompts, titles and Home tabs the app set (Slack's AI-app surfaces). */
  aiApps: SlackAiApps;
  /** Installs through OAuth v2: the workspaces, codes and tokens. */
  oauth: SlackOAuth;
  /** Mutable: switched by `SlackFake.limitAsNonMarketplaceApp`. */
  historyPaging: HistoryPaging;
  render: RenderContext;
  /** A one-time Socket Mode WebSocket URL (`apps.connections.open`). */
  openSocketUrl(): string;
  /** The bot posted a message; Slack echoes it as a `message` event to subscribed apps. */
  botPosted(message: SlackMessage): void;
  /** The bot edited a message; Slack tells subscribed apps with a `message_changed` event. */
  botEdited(message: SlackMessage, previous: SlackMessage): void;
  /** An absolute upload URL for a pending file (`files.getUploadURLExternal`). */
  uploadUrl(fileId: string): string;
}
