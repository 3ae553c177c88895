import type { CachedThreadMessage, Platform, ThreadCacheStore, ThreadCoverage } from '@genbot/core/store';
import { parseThreadMessage } from './rows.js';
import { iso, type StoreContext } from './store-context.js';

export function createThreadCacheStore({ db }: StoreContext): ThreadCacheStore {
  return {
    async put(message: CachedThreadMessage, options: { keepExisting?: boolean } = {}): Promise<void> {
      const content = {
        workspace_id: message.workspaceId ?? '',
        thread_id: message.threadId,
        author_id: message.author.id,
        author_name: message.author.name,
        author_is_bot: message.author.isBot ? 1 : 0,
        author_is_self: message.author.isSelf ? 1 : 0,
        text: message.text,
        attachments: JSON.stringify(message.attachments),
        posted_at: iso(message.postedAt),
        live_run: message.liveRun ?? null,
      };
      // The coverage kept on a thread's first message stays through its edits.
      await db
        .insertInto('thread_messages')
        .values({ platform: message.platform, channel_id: message.channelId, message_id: message.id, ...content })
        .onConflict((conflict) => {
          const existing = conflict.columns(['platform', 'channel_id', 'message_id']);
          return options.keepExisting === true ? existing.doNothing() : existing.doUpdateSet(content);
        })
        .execute();
    },

    async delete(platform: Platform, channelId: string, messageId: string): Promise<void> {
      await db
        .deleteFrom('thread_messages')
        .where('platform', '=', platform)
        .where('channel_id', '=', channelId)
        .where('message_id', '=', messageId)
        .execute();
    },

    async thread(
      platform: Platform,
      channelId: string,
      threadId: string,
      options: { limit?: number } = {},
    ): Promise<CachedThreadMessage[]> {
      let query = db
        .selectFrom('thread_messages')
        .selectAll()
        .where('platform', '=', platform)
        .where('channel_id', '=', channelId)
        .where('thread_id', '=', threadId)
        .orderBy('posted_at', 'desc')
        .orderBy('message_id', 'desc');
      if (options.limit !== undefined) query = query.limit(options.limit);
      const rows = await query.execute();
      return rows.map(parseThreadMessage).reverse();
    },

    async markWhole(platform: Platform, channelId: string, threadId: string, coverage: ThreadCoverage) {
      const result = await db
        .updateTable('thread_messages')
        .set({ whole_run: coverage.run, whole_through: coverage.through })
        .where('platform', '=', platform)
        .where('channel_id', '=', channelId)
        .where('message_id', '=', threadId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async coverage(platform: Platform, channelId: string, threadId: string): Promise<ThreadCoverage | undefined> {
      const row = await db
        .selectFrom('thread_messages')
        .select(['whole_run', 'whole_through'])
        .where('platform', '=', platform)
        .where('channel_id', '=', channelId)
        .where('message_id', '=', threadId)
        .executeTakeFirst();
      if (row?.whole_run == null || row.whole_through == null) return undefined;
      return { run: row.whole_run, through: row.whole_through };
    },
  };
}
