/**
 * Memory of megabytes with one owner at a time (an image answer, then the
 * images decoded in it), given back as soon as that owner is done with it
 * instead of at V8's next full collection, which comes only once external
 * memory has grown by tens of megabytes: with images in flight, dead answers
 * were most of the bot's growth, and the collections they started were its
 * longest stalls.
 */

/** Memory from `ownBytes` not freed yet: only that is ever freed early. */
const owned = new WeakSet<ArrayBufferLike>();

/** `length` uninitialised bytes in memory of their own, which `releaseBytes` may free. */
export function ownBytes(length: number): Buffer {
  const bytes = Buffer.allocUnsafeSlow(length);
  owned.add(bytes.buffer);
  return bytes;
}

/**
 * Frees the memory under `bytes` now, when `ownBytes` gave it: they and every
 * other view on that memory read as empty afterwards, so only its last user
 * calls this. Other bytes (a slice of Node's shared pool, a caller's buffer)
 * are left to the collector.
 */
export function releaseBytes(bytes: Uint8Array): void {
  const memory = bytes.buffer;
  if (!(memory instanceof ArrayBuffer) || !owned.delete(memory)) return;
  memory.transfer(0);
}
