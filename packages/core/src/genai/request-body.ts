import { processTurns } from '../time/loop-turns.js';

/** Stands for an inline image's Base64 in a request given to `requestBody`, which writes the bytes in its place. */
export const INLINE_IMAGE = '\u0000inline image\u0000';

/**
 * Bytes of the image encoded per chunk: a multiple of 3, so the chunks' Base64
 * joins without padding, and small enough that each chunk's text (64 KiB) is
 * an ordinary young object, not one more megabyte for a full collection.
 */
const SLICE_BYTES = 3 * 16 * 1024;
/** Chunks encoded in one turn of the loop: about a millisecond of work. */
const SLICES_PER_TURN = 4;

/** A request with an image: its length, and its bytes made afresh for each attempt. */
export interface StreamedBody {
  length: number;
  chunks(): AsyncIterable<Buffer>;
}

/**
 * A request as the bytes sent. Without `image`, its JSON. With it, the
 * request's one `INLINE_IMAGE` becomes the image's Base64, encoded while it is
 * sent, a few slices a turn of the loop (`processTurns`): a 13 MiB image
 * encoded at once was 130-150 ms of the loop (its 17 MiB of Base64, written
 * into a fresh buffer, then collected), and a whole copy of it per edit in
 * flight.
 */
export function requestBody(request: unknown): string;
export function requestBody(request: unknown, image: Uint8Array): StreamedBody;
export function requestBody(request: unknown, image?: Uint8Array): string | StreamedBody;
export function requestBody(request: unknown, image?: Uint8Array): string | StreamedBody {
  const json = JSON.stringify(request);
  if (image === undefined) return json;
  const marker = JSON.stringify(INLINE_IMAGE).slice(1, -1);
  const at = json.indexOf(marker);
  if (at === -1 || json.indexOf(marker, at + 1) !== -1) {
    throw new Error('requestBody needs exactly one INLINE_IMAGE in the request to place the image');
  }
  const head = Buffer.from(json.slice(0, at));
  const tail = Buffer.from(json.slice(at + marker.length));
  const source = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  return {
    length: head.length + 4 * Math.ceil(source.length / 3) + tail.length,
    async *chunks() {
      yield head;
      for (let from = 0, slices = 0; from < source.length; from += SLICE_BYTES, slices++) {
        if (slices % SLICES_PER_TURN === 0) await processTurns.take();
        yield Buffer.from(source.subarray(from, from + SLICE_BYTES).toString('base64'), 'latin1');
      }
      yield tail;
    },
  };
}
