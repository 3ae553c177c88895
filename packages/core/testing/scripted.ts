/** Deltas that arrive on a schedule (fake-timer friendly), optionally ending in an error. */
export async function* timedDeltas(
  script: ReadonlyArray<readonly [delayMs: number, text: string]>,
  failWith?: unknown,
): AsyncGenerator<string, void, undefined> {
  for (const [delayMs, text] of script) {
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    yield text;
  }
  if (failWith !== undefined) throw failWith;
}

/** `text` cut into `size`-character deltas, `gapMs` apart. */
export function evenly(text: string, size: number, gapMs: number): Array<[number, string]> {
  const script: Array<[number, string]> = [];
  for (let at = 0; at < text.length; at += size) script.push([gapMs, text.slice(at, at + size)]);
  return script;
}
