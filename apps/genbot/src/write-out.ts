import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Writes and waits for the pipe to drain when it is full, so a slow reader never makes us buffer a whole reply. */
export async function writeOut(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, 'drain');
}
