import { z } from 'zod';
import { SlackApiError } from './api-error.js';

/** What a Web API request carried: its arguments (strings from forms, any JSON from JSON bodies) and its bearer token. */
export interface ApiRequest {
  fields: Record<string, unknown>;
  bearer?: string;
}

const jsonObject = z.record(z.string(), z.unknown());

/**
 * Reads a Web API request the ways Slack accepts one: query string, form-encoded or multipart body
 * (every value a string, nested values as JSON strings), or a JSON body. Body fields win over the
 * query string.
 */
export async function readApiRequest(request: Request): Promise<ApiRequest> {
  const fields: Record<string, unknown> = Object.fromEntries(new URL(request.url).searchParams);
  const contentType = request.headers.get('content-type') ?? '';
  if (request.method === 'POST') {
    if (contentType.includes('application/json')) {
      const parsed = jsonObject.safeParse(await request.json().catch(() => undefined));
      if (!parsed.success) throw new SlackApiError('invalid_json');
      Object.assign(fields, parsed.data);
    } else if (contentType.includes('multipart/form-data')) {
      for (const [key, value] of await request.formData()) if (typeof value === 'string') fields[key] = value;
    } else {
      Object.assign(fields, Object.fromEntries(new URLSearchParams(await request.text())));
    }
  }
  const authorization = request.headers.get('authorization') ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  return { fields, ...(bearer !== undefined && { bearer }) };
}

function parseJsonString(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** A string argument; numbers are accepted because JSON callers send `ts` and the like unquoted. */
export const str = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string());

/** A structured argument: a JSON string inside a form, or the value itself in a JSON body. */
export function json<T extends z.ZodType>(schema: T) {
  return z.preprocess(parseJsonString, schema);
}

export const flag = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  z.boolean(),
);

export const int = z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), z.number().int());

/** Validates a method's arguments; Slack answers `invalid_arguments` for malformed ones. */
export function parseArgs<T extends z.ZodType>(schema: T, fields: Record<string, unknown>): z.output<T> {
  const result = schema.safeParse(fields);
  if (!result.success) {
    const messages = result.error.issues.map(
      (issue) => `[ERROR] ${issue.message} [json-pointer:/${issue.path.join('/')}]`,
    );
    throw new SlackApiError('invalid_arguments', { response_metadata: { messages } });
  }
  return result.data;
}
