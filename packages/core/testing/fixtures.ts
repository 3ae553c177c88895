/** Small, real image files for tests: decodable headers, so magic-number detection sees true types. */
import { Writable } from 'node:stream';
import { deflateSync } from 'node:zlib';
import pino, { type Logger } from 'pino';

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A valid 1x1 grey PNG. */
export function tinyPng(): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const pixels = deflateSync(Buffer.from([0, 0x80]));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', pixels),
      chunk('IEND', new Uint8Array()),
    ]),
  );
}

/** JPEG start-of-image and JFIF marker: enough for type detection. */
export function jpegHeader(): Uint8Array {
  return new Uint8Array([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,
    0x00, 0xff, 0xd9,
  ]);
}

export function gifHeader(): Uint8Array {
  return new Uint8Array([...Buffer.from('GIF89a', 'ascii'), 1, 0, 1, 0, 0, 0, 0, 0x3b]);
}

export function webpHeader(): Uint8Array {
  return new Uint8Array(
    Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(18)]),
  );
}

export function heicHeader(): Uint8Array {
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from('ftypheic'),
      Buffer.from([0, 0, 0, 0]),
      Buffer.from('mif1heic'),
      Buffer.alloc(16),
    ]),
  );
}

export function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

// ---- messages stream ------------------------------------------------------------------

export function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export const MESSAGE_START = {
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-x',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 1 },
  },
};

export const FULL_STREAM = [
  sse('message_start', MESSAGE_START),
  sse('content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'thinking', thinking: '' },
  }),
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'thinking_delta', thinking: 'hmm' },
  }),
  sse('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'signature_delta', signature: 'sig' },
  }),
  sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
  sse('content_block_start', { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
  sse('ping', { type: 'ping' }),
  sse('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Héllo' } }),
  sse('content_block_delta', { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: ' world' } }),
  sse('content_block_stop', { type: 'content_block_stop', index: 1 }),
  sse('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 7 },
  }),
  sse('message_stop', { type: 'message_stop' }),
].join('');

/** The bytes in awkward pieces: split inside lines and inside a multi-byte character. */
export async function* bytesInPieces(text: string, size: number): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
}

// ---- logs ------------------------------------------------------------------------------

/** A pino logger writing into memory, so tests can read what was logged. */
export function captureLogs(level = 'trace'): {
  logger: Logger;
  text: () => string;
  lines: () => Array<Record<string, unknown>>;
} {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const text = (): string => chunks.join('');
  return {
    logger: pino({ level }, stream),
    text,
    lines: () =>
      text()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
