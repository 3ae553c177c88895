/**
 * A Buffer over the same memory as `bytes`. Platform libraries want Buffers;
 * `Buffer.from(uint8Array)` would copy, and images are megabytes each.
 */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
