import { fileURLToPath } from 'node:url';
import type { PlaygroundSnapshot } from '@genbot/playground';
import { eventually } from '@genbot/test-servers';
import { type GenbotProcess, spawnGenbot } from '@genbot/test-servers/genbot';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Starts `genbot start` with no token and resolves with the playground address it printed. */
export async function startPlaygroundProcess(
  env: Record<string, string> = {},
): Promise<{ genbot: GenbotProcess; url: string }> {
  const genbot = spawnGenbot(['start'], { PLAYGROUND_PORT: '0', ...env });
  try {
    const match = await genbot.waitForLine(/^Playground: (http:\/\/\S+)$/, 30_000);
    return { genbot, url: match[1] as string };
  } catch (err) {
    await genbot.stop(2000);
    throw err;
  }
}

/** Follows the playground's live feed and keeps the latest state, until the server ends it. */
export function followFeed<T>(url: string): { latest(): T | undefined; ended: Promise<void>; close(): void } {
  const controller = new AbortController();
  let latest: T | undefined;
  const ended = (async () => {
    const response = await fetch(new URL('api/events', url), { signal: controller.signal });
    if (!response.ok || response.body === null) throw new Error(`feed answered ${response.status}`);
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (data !== '') latest = JSON.parse(data) as T;
        }
      }
    } catch (err) {
      if (!controller.signal.aborted) {
        // The server closing the connection mid-read ends the feed as well.
        if (!(err instanceof Error && /terminated|aborted|other side closed/i.test(err.message))) throw err;
      }
    }
  })();
  return { latest: () => latest, ended, close: () => controller.abort() };
}

/** POSTs JSON and returns the JSON answer; rejects on an error status. */
export async function postJson(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer: unknown = await response.json();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/** The text of the bot's replies to two mentions in the playground, one on each platform. */
export interface SlowReplies {
  slack(state: PlaygroundSnapshot | undefined): string | undefined;
  discord(state: PlaygroundSnapshot | undefined): string | undefined;
}

/** A reply of about 800 characters streamed over about 3 s: what a shutdown has to let finish. */
export const SLOW_PROMPT = 'tell me a long story [len:800] [delay:200]';

/** Mentions the bot on both emulated platforms with SLOW_PROMPT; resolves once both replies have started. */
export async function startSlowReplies(
  url: string,
  feed: { latest(): PlaygroundSnapshot | undefined },
): Promise<SlowReplies> {
  const slackPost = (await postJson(new URL('api/slack/messages', url).href, { text: `@genbot ${SLOW_PROMPT}` })) as {
    ts: string;
  };
  const discordPost = (await postJson(new URL('api/discord/messages', url).href, {
    content: `@genbot ${SLOW_PROMPT}`,
  })) as { id: string };
  const replies: SlowReplies = {
    slack: (state) =>
      state?.slack.messages.find((m) => m.isBot && m.threadTs === slackPost.ts && m.text.startsWith('You said'))?.text,
    discord: (state) =>
      state?.discord.messages.find(
        (m) => m.isBot && m.replyTo?.id === discordPost.id && m.content.startsWith('You said'),
      )?.content,
  };
  await eventually(() => replies.slack(feed.latest()) && replies.discord(feed.latest()), {
    timeoutMs: 20_000,
    what: 'both replies to start',
  });
  return replies;
}

/** Both replies complete: the whole text, ending as the emulator ends it. */
export function repliesComplete(replies: SlowReplies, state: PlaygroundSnapshot | undefined): boolean {
  return [replies.slack(state), replies.discord(state)].every(
    (text) => text !== undefined && text.length >= 800 && text.endsWith('.'),
  );
}
