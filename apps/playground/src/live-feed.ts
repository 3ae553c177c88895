import type { DiscordFake, SlackFake } from '@genbot/fakes';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { discordFingerprint, type PlaygroundSnapshot } from './snapshot.js';

/** Idle feeds get a comment this often, so that nothing between here and the page closes them. */
const KEEP_ALIVE_MS = 15_000;

interface Page {
  send(data: string): void;
  /** Ends the stream once what was sent before is written. */
  end(): void;
  /** Resolves once the stream has ended, whoever ended it. */
  readonly done: Promise<void>;
}

export interface LiveFeedOptions {
  slack: SlackFake;
  discord: DiscordFake;
  discordChannel: string;
  /** How often the Discord fake is checked for changes (it has no change events). */
  pollMs: number;
  /** The state the pages see, at a version. */
  render(version: number): PlaygroundSnapshot;
}

/**
 * The state as server-sent events: each open page gets the current state, then a new version after
 * every change. The Slack workspace tells of its changes; the Discord guild is fingerprinted on a timer.
 */
export class LiveFeed {
  readonly #options: LiveFeedOptions;
  readonly #pages = new Set<Page>();
  readonly #timer: NodeJS.Timeout;
  readonly #unsubscribe: () => void;
  #version = 0;
  #dirty = true;
  #lastDiscord = '';
  #ended = false;

  constructor(options: LiveFeedOptions) {
    this.#options = options;
    this.#unsubscribe = options.slack.workspace.onChange(() => {
      this.#dirty = true;
    });
    this.#timer = setInterval(() => this.#tick(), options.pollMs);
    this.#timer.unref();
  }

  /** The state now, as a page receives it. */
  current(): PlaygroundSnapshot {
    return this.#options.render(this.#version);
  }

  /** Something changed that the pages should see at once: an action, or shutdown beginning. */
  changed(): void {
    this.#dirty = true;
    this.#tick();
  }

  /** Streams the state to one page until it leaves or the feed ends. */
  stream(c: Context): Response {
    return streamSSE(c, async (stream) => {
      let finish: () => void = () => {};
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      let markDone: () => void = () => {};
      const done = new Promise<void>((resolve) => {
        markDone = resolve;
      });
      let queue = Promise.resolve();
      const write = (chunk: () => Promise<unknown>): void => {
        queue = queue
          .then(chunk)
          .then(() => undefined)
          .catch(() => finish());
      };
      const page: Page = {
        send: (data) => write(() => stream.writeSSE({ event: 'state', data })),
        end: () => void queue.finally(finish),
        done,
      };
      this.#pages.add(page);
      stream.onAbort(finish);
      page.send(JSON.stringify(this.current()));
      if (this.#ended) page.end();
      const keepAlive = setInterval(() => write(() => stream.write(': keep-alive\n\n')), KEEP_ALIVE_MS);
      await finished;
      clearInterval(keepAlive);
      this.#pages.delete(page);
      await queue;
      markDone();
    });
  }

  /** Sends the last state to every page and ends their streams; resolves once they have ended. */
  async end(): Promise<void> {
    if (this.#ended) return;
    this.changed();
    this.#ended = true;
    clearInterval(this.#timer);
    this.#unsubscribe();
    const pages = [...this.#pages];
    for (const page of pages) page.end();
    await Promise.all(pages.map((page) => page.done));
  }

  #tick(): void {
    const { discord, discordChannel } = this.#options;
    const fingerprint = discordFingerprint(discord, discordChannel);
    if (fingerprint !== this.#lastDiscord) {
      this.#lastDiscord = fingerprint;
      this.#dirty = true;
    }
    if (!this.#dirty) return;
    this.#dirty = false;
    this.#version += 1;
    if (this.#pages.size === 0) return;
    const data = JSON.stringify(this.current());
    for (const page of this.#pages) page.send(data);
  }
}
