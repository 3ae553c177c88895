/** Stands for an inline image's Base64 in a request given to `requestBody`, which writes the bytes in its place. */
export const INLINE_IMAGE = '\u0000inline image\u0000';

/** Bytes of the image encoded per slice: a multiple of 3, so the slices' Base64 joins without padding. */
const SLICE_BYTES = 3 * 256 * 1024;

/**
 * A request as the JSON bytes sent. With `image`, the request's one
 * `INLINE_IMAGE` becomes the image's Base64, written straight into the body a
 * slice at a time: a 13 MiB image then costs its 17 MiB of Base64 once, where
 * a Base64 string, the JSON string around it and the bytes sent cost it three
 * times, and all of it garbage the moment the request is answered.
 */
export function requestBody(request: unknown, image?: Uint8Array): string | Buffer {
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
  const body = Buffer.allocUnsafe(head.length + 4 * Math.ceil(source.length / 3) + tail.length);
  let offset = head.copy(body, 0);
  for (let from = 0; from < source.length; from += SLICE_BYTES) {
    offset += body.write(source.subarray(from, from + SLICE_BYTES).toString('base64'), offset, 'latin1');
  }
  tail.copy(body, offset);
  return body;
}
