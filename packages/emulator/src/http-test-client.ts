/**
 * How the emulator's own tests talk to it over HTTP and read what it sends back: SSE frames, bodies
 * cut off by a fault, an image's pixels. Other packages' tests replay payloads (`real-payloads-for-tests.ts`).
 */
import sharp from 'sharp';

export interface SseFrame {
  event: string;
  data: unknown;
}

/** Parses an SSE body by splitting on blank lines, as the framing is `event: T\ndata: JSON\n\n`. */
export function parseSse(body: string): SseFrame[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length) ?? '';
      const data = lines.find((line) => line.startsWith('data: '))?.slice('data: '.length) ?? 'null';
      return { event, data: JSON.parse(data) as unknown };
    });
}

export function postJson(url: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Reads a body that may be cut off, returning what arrived and whether it failed. */
export async function readUntilCut(response: Response): Promise<{ text: string; failed: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { text: '', failed: false };
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, failed: false };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text, failed: true };
  }
}

/** Decoded RGB pixels, so tests can compare what an image shows. */
export async function rgbPixels(image: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(image)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
