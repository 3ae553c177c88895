import type { Platform, View } from './platform.js';

/** How long a view must stay unchanged to count as final: long enough for a duplicate to show up. */
const QUIET_MS = 700;
const POLL_MS = 40;

function fingerprint(view: View): string {
  return JSON.stringify({
    texts: view.texts,
    uploads: view.uploads.map((upload) => [upload.comment, upload.files.map((file) => [file.name, file.bytes.byteLength])]),
  });
}

/**
 * Waits until the bot's view of the channel satisfies `done` and then stays
 * unchanged for a moment, and answers it. Rate limits and retries leave gaps
 * in a reply, so quiet alone is no sign that it is complete; on timeout the
 * error shows what the user saw last.
 */
export async function settled(platform: Platform, channel: string, done: (view: View) => boolean, timeoutMs = 25_000): Promise<View> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  let changedAt = Date.now();
  for (;;) {
    const view = platform.view(channel);
    const print = fingerprint(view);
    if (print !== last) {
      last = print;
      changedAt = Date.now();
    }
    if (done(view) && Date.now() - changedAt >= QUIET_MS) return view;
    if (Date.now() > deadline) throw new Error(`the bot's messages never settled as expected; last seen: ${print}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Lets the bot act on something it should ignore, then answers what it showed. */
export async function afterAWhile(platform: Platform, channel: string, ms = 1_000): Promise<View> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return platform.view(channel);
}
