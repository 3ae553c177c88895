import { createHash } from 'node:crypto';
import { processTurns } from '../time/loop-turns.js';

/** Bytes hashed in one turn of the event loop: about a millisecond. */
const SLICE_BYTES = 1024 * 1024;

/**
 * The SHA-256 of an image the bot posted (its version record), in hex, a
 * slice a turn. Hashing takes 3-4 ms per 4 MiB, and images uploaded together
 * were hashed back to back in one turn (12 ms of a stall in pnpm bench).
 * WebCrypto's digest does not help: Node 24 hashes synchronously inside it.
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const hash = createHash('sha256');
  await processTurns.inSlices(bytes.byteLength, SLICE_BYTES, 1, (from, to) => hash.update(bytes.subarray(from, to)));
  return hash.digest('hex');
}
