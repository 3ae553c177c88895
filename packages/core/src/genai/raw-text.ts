/**
 * A JSON string literal kept as the bytes it came in: ASCII with no escape,
 * so each byte is one character and the bytes are the value.
 *
 * An image answer is megabytes of Base64. As a JavaScript string it is one
 * more copy of the image (Latin-1, outside the V8 heap, freed only by a full
 * collection); as a view on the body it costs nothing, and the decoder reads
 * it slice by slice.
 */
export class RawText {
  readonly bytes: Buffer;

  constructor(bytes: Buffer) {
    this.bytes = bytes;
  }

  get length(): number {
    return this.bytes.byteLength;
  }

  /** The value as a string (a copy: for the rare text that needs a string's methods). */
  toString(): string {
    return this.bytes.toString('latin1');
  }
}
