import { eventually } from '@genbot/test-servers';
import type { ChatRig, Version } from './chat-rig.js';

/** What one mention's reply looked like to the user, against what the service streamed. */
export interface ReplyOutcome {
  /** The single reply message ended with exactly the streamed text. */
  exact: boolean;
  /** From the service's first delta to the first version carrying reply text, ms. */
  firstTextMs: number | undefined;
  /** From the service's last delta to the version showing the whole text, ms. */
  lagMs: number | undefined;
}

const POLL_MS = 50;
/** Every reply of the emulator quotes the prompt first. */
const REPLY_START = 'You said';

function replyOutcome(rig: ChatRig, index: number): ReplyOutcome {
  const stream = rig.proxy.streams.get(`m${index}`);
  const messages = rig.replies(index);
  const versions: Version[] = messages[0] ?? [];
  const firstText = versions.find((version) => version.text.startsWith(REPLY_START));
  const complete = stream === undefined ? undefined : versions.find((version) => version.text === stream.text);
  return {
    exact: stream !== undefined && messages.length === 1 && versions.at(-1)?.text === stream.text,
    firstTextMs: stream === undefined || firstText === undefined ? undefined : firstText.at - stream.firstDeltaAt,
    lagMs: stream === undefined || complete === undefined ? undefined : complete.at - stream.lastDeltaAt,
  };
}

/** Waits until the reply to each of mentions 0 to `count - 1` shows its whole text (or `timeoutMs` passes), then reads them all. */
export function settledReplies(rig: ChatRig, count: number, timeoutMs: number): Promise<ReplyOutcome[]> {
  return settledOutcomes(
    rig,
    Array.from({ length: count }, (_, index) => index),
    timeoutMs,
  );
}

/** As `settledReplies`, for the mentions `indices`, in that order. */
export async function settledOutcomes(
  rig: ChatRig,
  indices: readonly number[],
  timeoutMs: number,
): Promise<ReplyOutcome[]> {
  const read = () => indices.map((index) => replyOutcome(rig, index));
  // Past the time the replies are read as they are: the benchmark reports what was not exact.
  await eventually(() => read().every((o) => o.exact), { timeoutMs, everyMs: POLL_MS }).catch(() => undefined);
  return read();
}

/** The defined samples; a benchmark whose replies never showed text fails loudly rather than reporting nothing. */
export function samples(what: string, values: Array<number | undefined>): number[] {
  const defined = values.filter((value): value is number => value !== undefined);
  if (defined.length === 0) throw new Error(`no ${what} measured`);
  return defined;
}
