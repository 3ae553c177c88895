import { eventually } from '@genbot/test-servers';
import type { RecordedRequest } from '@genbot/emulator';
import { messagesRequests } from './oracle.js';
import type { Platform, View } from './platform.js';
import type { RowContext } from './row.js';

/** How long a view must stay unchanged to count as final: long enough for a duplicate to show up. */
const QUIET_MS = 700;
const POLL_MS = 40;

function fingerprint(view: View): string {
  return JSON.stringify({
    texts: view.texts,
    uploads: view.uploads.map((upload) => [
      upload.comment,
      upload.files.map((file) => [file.name, file.bytes.byteLength]),
    ]),
  });
}

/**
 * Waits until the bot's view of the channel satisfies `done` and then stays
 * unchanged for a moment, and answers it. Rate limits and retries leave gaps
 * in a reply, so quiet alone is no sign that it is complete; on timeout the
 * error shows what the user saw last.
 */
export async function settled(
  platform: Platform,
  channel: string,
  done: (view: View) => boolean,
  timeoutMs = 25_000,
): Promise<View> {
  let last = '';
  let changedAt = Date.now();
  return eventually(
    () => {
      const view = platform.view(channel);
      const print = fingerprint(view);
      if (print !== last) {
        last = print;
        changedAt = Date.now();
      }
      return done(view) && Date.now() - changedAt >= QUIET_MS && view;
    },
    { timeoutMs, everyMs: POLL_MS, what: () => `the bot's messages settled as expected; last seen: ${last}` },
  );
}

const MARKER = 'marker, answer briefly [len:40]';

/**
 * What the bot showed in the row's channel and sent to the service, once a person's mention sent now
 * has its whole answer: the bot takes events in order, so whatever it would still do about the row's
 * earlier ones has begun by then. Proves that it did nothing, without sleeping and hoping long enough.
 * The marker's own reply and request are left out.
 */
export async function beforeMarker(ctx: RowContext): Promise<{ view: View; requests: RecordedRequest[] }> {
  const isMarker = (request: RecordedRequest) => JSON.stringify(request.body).includes(MARKER);
  await ctx.platform.mention(ctx.channel, MARKER);
  const request = await eventually(() => ctx.requests().find(isMarker), {
    everyMs: POLL_MS,
    what: 'the conversation request of the marker',
  });
  const [body] = messagesRequests([request]);
  if (body === undefined) throw new Error(`the marker went to ${request.path}, not to the messages operation`);
  const answer = await ctx.oracle.reply(body);
  const view = await settled(ctx.platform, ctx.channel, (v) => v.texts.includes(answer));
  const texts = [...view.texts];
  texts.splice(texts.lastIndexOf(answer), 1);
  return { view: { texts, uploads: view.uploads }, requests: ctx.requests().filter((r) => !isMarker(r)) };
}
