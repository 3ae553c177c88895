/** The chat platforms a job or record belongs to. */
export type Platform = 'slack' | 'discord';

/**
 * Where something happened. `workspaceId` is the Slack team or the Discord
 * guild, absent in a Discord DM; `threadId` is the platform's thread key
 * (Slack thread_ts, a Discord thread channel or the message a reply refers to).
 */
export interface StoredPlace {
  platform: Platform;
  workspaceId?: string | undefined;
  channelId: string;
  threadId?: string | undefined;
}
