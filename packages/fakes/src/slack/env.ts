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

/** What a Web API method handler may use. */
export interface SlackEnv {
  identity: SlackIdentity;
  workspace: SlackWorkspace;
  render: RenderContext;
  /** A one-time Socket Mode WebSocket URL (`apps.connections.open`). */
  openSocketUrl(): string;
  /** The bot posted a message; Slack echoes it as a `message` event to subscribed apps. */
  botPosted(message: SlackMessage): void;
  /** An absolute upload URL for a pending file (`files.getUploadURLExternal`). */
  uploadUrl(fileId: string): string;
}
