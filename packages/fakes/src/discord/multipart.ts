import { DiscordHttpError } from './errors.js';
import type { Upload } from './attachments.js';

export interface RequestBody {
  /** The JSON body, or `payload_json` (plus plain form fields) of a multipart body. */
  readonly payload: unknown;
  /** Uploaded files by their `files[n]` index. */
  readonly files: ReadonlyMap<string, Upload>;
}

const FILE_KEY = /^files\[(\d+)\]$/;

export const invalidJson = (): DiscordHttpError =>
  new DiscordHttpError(400, 50109, 'The request body contains invalid JSON.');

/** Reads a JSON or multipart (`payload_json` + `files[n]`) body; files over the limit get 413. */
export async function readRequestBody(request: Request, maxFileBytes: number): Promise<RequestBody> {
  const type = request.headers.get('content-type') ?? '';
  if (type.startsWith('multipart/form-data')) return readMultipart(request, maxFileBytes);
  const text = await request.text();
  if (text.trim() === '') return { payload: {}, files: new Map() };
  return { payload: parseJson(text), files: new Map() };
}

async function readMultipart(request: Request, maxFileBytes: number): Promise<RequestBody> {
  const form = await request.formData();
  const files = new Map<string, Upload>();
  let payload: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  let nextIndex = 0;
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string') {
      if (key === 'payload_json') payload = asObject(parseJson(value));
      else fields[key] = value;
      continue;
    }
    if (value.size > maxFileBytes) throw new DiscordHttpError(413, 40005, 'Request entity too large');
    const index = FILE_KEY.exec(key)?.[1] ?? String(nextIndex);
    nextIndex = Math.max(nextIndex, Number(index) + 1);
    files.set(index, {
      filename: value.name || `file${index}`,
      contentType: value.type,
      bytes: Buffer.from(await value.arrayBuffer()),
    });
  }
  return { payload: { ...fields, ...payload }, files };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalidJson();
  }
}

function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidJson();
  return value as Record<string, unknown>;
}
